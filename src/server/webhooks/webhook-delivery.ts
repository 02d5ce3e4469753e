import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { NonPublicAddressError, ResponseTooLargeError, type OutgoingRequestGuard } from '../http/public-address.js';
import { enqueueJobs, PermanentJobError, type JobQueue, type NewJob } from '../queue/job-queue.js';
import { SIGNATURE_HEADER, webhookSignature } from './webhook-signature.js';
import { deliveryToSend, insertDeliveries, recordAttempt, webhookIdsFor } from './webhooks.repository.js';

/**
 * One delivery is one job of the durable queue (`webhook-delivery`, keyed by the delivery), queued
 * in the same transaction as the delivery's row. A run posts the stored body, signed, and records
 * the answer on the row before the job is marked done: a delivery is recorded `delivered` once, and
 * a run that finds it so sends nothing. The one window left is a process that dies after the
 * receiver answered and before the row was written: the next run sends it again, with the same
 * `X-Webhook-Id` (the delivery's id), by which a receiver can tell (docs/webhooks.md, "Exactly once").
 */
export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';

/** What a delivery keeps of the answer's body. */
export const ANSWER_KEPT_CHARS = 500;
/** The whole request, answer included; the guard adds its own cap on the bytes (issue 56). */
const TIMEOUT_MS = 10_000;
/** Enough bytes for ANSWER_KEPT_CHARS characters of UTF-8: no more is read, whatever the target sends. */
const ANSWER_READ_BYTES = ANSWER_KEPT_CHARS * 4;

/**
 * The answer's first ANSWER_KEPT_CHARS characters, read from the stream; then the body is
 * cancelled (its connection closed), so a target that streams without end costs a few kilobytes.
 */
async function answerStart(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < ANSWER_READ_BYTES && text.length < ANSWER_KEPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) {
        text += decoder.decode();
        break;
      }
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, ANSWER_KEPT_CHARS);
}

export interface DeliveryDeps {
  db: Kysely<Database>;
  guard: OutgoingRequestGuard;
  maxAttempts: number;
  userAgent: string;
}

const deliveryJob = (deliveryId: string, maxAttempts: number): NewJob => ({ kind: WEBHOOK_DELIVERY_JOB, key: `${WEBHOOK_DELIVERY_JOB}:${deliveryId}`, payload: { deliveryId }, maxAttempts });

/**
 * One delivery per webhook of `event` (none again for an `eventId` already delivered to it), with
 * its job, in one transaction. `payload` is built only when some webhook wants the event.
 * Answers how many were queued.
 */
export async function queueDeliveries(
  deps: Pick<DeliveryDeps, 'db' | 'maxAttempts'>,
  event: string,
  eventId: string,
  payload: () => Promise<Record<string, unknown> | null>,
  onlyWebhookId?: string,
): Promise<number> {
  const webhooks = onlyWebhookId ? [{ id: onlyWebhookId }] : await webhookIdsFor(deps.db, event);
  if (webhooks.length === 0) return 0;
  const body = await payload();
  if (!body) return 0;
  return deps.db.transaction().execute(async (trx) => {
    const ids = await insertDeliveries(
      trx,
      webhooks.map((webhook) => ({ id: randomUUID(), webhookId: webhook.id, event, eventId, payload: body })),
    );
    await enqueueJobs(trx, ids.map((id) => deliveryJob(id, deps.maxAttempts)));
    return ids.length;
  });
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  if (error instanceof NonPublicAddressError || cause instanceof NonPublicAddressError) return `Refused: ${(cause instanceof NonPublicAddressError ? cause : (error as Error)).message}`;
  if ((error as Error)?.name === 'TimeoutError' || (cause as Error)?.name === 'TimeoutError') return `No answer within ${TIMEOUT_MS / 1000} s`;
  if (cause instanceof ResponseTooLargeError) return `Not delivered: ${cause.message}`;
  const code = (cause as { code?: string })?.code;
  return `Not delivered: ${code ?? (error as Error)?.message ?? String(error)}`;
}

export function registerWebhookDelivery(queue: JobQueue, deps: DeliveryDeps): void {
  queue.register<{ deliveryId: string }>({
    kind: WEBHOOK_DELIVERY_JOB,
    lane: 'remote',
    async run(job, { signal, log }) {
      const delivery = await deliveryToSend(deps.db, job.payload.deliveryId);
      // Its webhook was deleted (and its deliveries with it), or it already went: nothing to send.
      if (!delivery || delivery.status === 'delivered') return;
      const last = job.attempt >= job.maxAttempts;
      const record = (outcome: { ok: boolean; httpStatus: number | null; response: string | null }) =>
        recordAttempt(deps.db, delivery.id, { status: outcome.ok ? 'delivered' : last ? 'failed' : 'pending', attempts: job.attempt, httpStatus: outcome.httpStatus, response: outcome.response });

      const body = JSON.stringify(delivery.payload);
      const time = Date.now();
      let answer: { status: number; text: string };
      try {
        await deps.guard.assertAllowed(delivery.target_url);
        answer = await deps.guard.run(async () => {
          const response = await fetch(delivery.target_url, {
            method: 'POST',
            body,
            // A redirect is not followed: its target was never checked, and it is an answer of its own.
            redirect: 'manual',
            signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
            headers: {
              'content-type': 'application/json',
              'user-agent': deps.userAgent,
              [SIGNATURE_HEADER]: webhookSignature(delivery.secret, body, time),
              'X-Webhook-Id': delivery.id,
              'X-Webhook-Event': delivery.event,
            },
          });
          return { status: response.status, text: await answerStart(response) };
        });
      } catch (error) {
        const refused = error instanceof NonPublicAddressError || (error as { cause?: unknown })?.cause instanceof NonPublicAddressError;
        await recordAttempt(deps.db, delivery.id, { status: refused || last ? 'failed' : 'pending', attempts: job.attempt, httpStatus: null, response: describeFailure(error) });
        // A refused address stays refused: no retry.
        if (refused) throw new PermanentJobError(describeFailure(error));
        throw error;
      }
      const ok = answer.status >= 200 && answer.status < 300;
      await record({ ok, httpStatus: answer.status, response: answer.text });
      if (!ok) throw new Error(`the webhook's target answered ${answer.status}`);
      log.info({ deliveryId: delivery.id, event: delivery.event, status: answer.status }, 'webhook delivered');
    },
  });
}
