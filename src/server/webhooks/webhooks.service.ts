import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CreatedWebhook, NewWebhook, Webhook, WebhookDelivery, WebhookEvent, WebhookList } from '../../shared/webhook-schema.js';
import { recordAudit } from '../core/audit-log.js';
import type { Database } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { NonPublicAddressError, type OutgoingRequestGuard } from '../http/public-address.js';
import type { JobQueue } from '../queue/job-queue.js';
import { queueDeliveries } from './webhook-delivery.js';
import { testPayload } from './webhook-payloads.js';
import {
  deleteWebhookRow,
  findDeliveryRow,
  findWebhookRow,
  insertWebhook,
  listWebhookRows,
  recentDeliveryRows,
  type DeliveryRow,
  type WebhookRow,
} from './webhooks.repository.js';

export interface WebhooksDeps {
  db: Kysely<Database>;
  queue: JobQueue;
  guard: OutgoingRequestGuard;
  publicUrl: string;
  maxAttempts: number;
}

type Actor = { id: string; email: string };

/** Deliveries shown under each webhook. */
export const RECENT_DELIVERIES = 10;

/** Enough to tell two secrets apart, never enough to use one. */
export function maskSecret(secret: string): string {
  return `••••••••${secret.slice(-4)}`;
}

function toDeliveryJson(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.event as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    lastHttpStatus: row.last_http_status,
    lastResponse: row.last_response,
    createdAt: new Date(row.created_at).toISOString(),
    lastAttemptAt: row.last_attempt_at ? new Date(row.last_attempt_at).toISOString() : null,
    deliveredAt: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
  };
}

function toWebhookJson(row: WebhookRow, deliveries: DeliveryRow[]): Webhook {
  return {
    id: row.id,
    event: row.event as WebhookEvent,
    targetUrl: row.target_url,
    secretMasked: maskSecret(row.secret),
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by_email,
    deliveries: deliveries.map(toDeliveryJson),
  };
}

/** What the audit log keeps of a webhook: never its secret. */
const auditedWebhook = (row: WebhookRow) => ({ event: row.event, targetUrl: row.target_url, secret: maskSecret(row.secret) });

export async function listWebhooks(deps: Pick<WebhooksDeps, 'db'>): Promise<WebhookList> {
  const rows = await listWebhookRows(deps.db);
  const deliveries = await recentDeliveryRows(
    deps.db,
    rows.map((row) => row.id),
    RECENT_DELIVERIES,
  );
  return { items: rows.map((row) => toWebhookJson(row, deliveries.filter((delivery) => delivery.webhook_id === row.id))) };
}

/** The target is checked now (a private address is refused unless allowed), and again at every delivery. */
async function assertTargetAllowed(guard: OutgoingRequestGuard, targetUrl: string): Promise<void> {
  try {
    await guard.assertAllowed(targetUrl);
  } catch (error) {
    if (error instanceof NonPublicAddressError) throw badRequest(`The target URL must be a public address: ${error.message}.`, 'TARGET_NOT_PUBLIC');
    throw badRequest('The target URL’s host could not be found.', 'TARGET_NOT_FOUND');
  }
}

export async function createWebhook(deps: WebhooksDeps, actor: Actor, input: NewWebhook): Promise<CreatedWebhook> {
  await assertTargetAllowed(deps.guard, input.targetUrl);
  const secret = input.secret ? input.secret : randomBytes(32).toString('hex');
  const row = await deps.db.transaction().execute(async (trx) => {
    const created = await insertWebhook(trx, { id: randomUUID(), event: input.event, targetUrl: input.targetUrl, secret, createdBy: actor });
    await recordAudit(trx, { actor, action: 'webhook.create', subject: created.id, after: auditedWebhook(created) });
    return created;
  });
  return { webhook: toWebhookJson(row, []), secret };
}

export async function deleteWebhook(deps: Pick<WebhooksDeps, 'db'>, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const removed = await deleteWebhookRow(trx, id);
    if (!removed) throw notFound('No such webhook.');
    await recordAudit(trx, { actor, action: 'webhook.delete', subject: removed.id, before: auditedWebhook(removed) });
  });
}

/** 'Send test': one delivery of a made-up event of the webhook's kind, through the queue like any other. */
export async function sendTest(deps: WebhooksDeps, id: string): Promise<WebhookDelivery> {
  const webhook = await findWebhookRow(deps.db, id);
  if (!webhook) throw notFound('No such webhook.');
  const eventId = `test:${randomUUID()}`;
  await queueDeliveries(deps, webhook.event, eventId, async () => testPayload(deps.publicUrl, webhook.event as WebhookEvent), webhook.id);
  deps.queue.wake();
  const delivery = await deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id).where('event_id', '=', eventId).executeTakeFirstOrThrow();
  return toDeliveryJson((await findDeliveryRow(deps.db, delivery.id))!);
}
