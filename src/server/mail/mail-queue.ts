import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { PermanentJobError, type JobQueue } from '../queue/job-queue.js';
import type { MailMessage, Mailer } from './mailer.js';

export const MAIL_JOB = 'mail';

/**
 * Sends through the transport no faster than `perMinute` messages a minute (`MAIL_SEND_PER_MINUTE`),
 * this process's every message counted: the waiting ones stay queued in the database meanwhile.
 */
export function sendRate(perMinute: number) {
  const gapMs = 60_000 / perMinute;
  let next = 0;
  return async (message: MailMessage, transport: Mailer, signal?: AbortSignal) => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + gapMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
    signal?.throwIfAborted();
    await sendOrClassify(transport, message);
  };
}
export type RatedSend = ReturnType<typeof sendRate>;

/** A 5xx answer of the mail server is final (an address it refuses): that job is not tried again. */
async function sendOrClassify(transport: Mailer, message: MailMessage) {
  try {
    await transport.send(message);
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500 && code < 600) throw new PermanentJobError(`the mail server refused the message: ${(error as Error).message}`);
    throw error;
  }
}

/** Every message the app sends is a job of the durable queue: an SMTP outage delays mail, it fails no request. */
export function registerMailJob(queue: JobQueue, send: RatedSend, transport: Mailer) {
  queue.register<{ message: MailMessage }>({
    kind: MAIL_JOB,
    // Workers of its own: a sign-in link never waits behind deliveries to dead targets (issue 56).
    lane: 'mail',
    run: (job, { signal }) => send(job.payload.message, transport, signal),
  });
}

/**
 * The app's mailer: `send` queues the message (a row, committed when it returns) and wakes the
 * worker. The message, sign-in links included, is kept in the row only until it is sent.
 */
export function queuedMailer(db: Kysely<Database>, queue: JobQueue): Mailer {
  return {
    async send(message) {
      await queue.enqueue(db, { kind: MAIL_JOB, key: `mail:${randomUUID()}`, payload: { message } });
      queue.wake();
    },
    close: () => {},
  };
}
