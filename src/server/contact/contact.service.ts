import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ContactInput } from '../../shared/contact-schema.js';
import type { Database } from '../db/schema.js';
import type { RatedSend } from '../mail/mail-queue.js';
import type { Mailer } from '../mail/mailer.js';
import { enqueueJob, type JobQueue } from '../queue/job-queue.js';
import { findContactMessage, insertContactMessage, markContactMessageForwarded } from './contact.repository.js';

export const CONTACT_FORWARD_JOB = 'contact-forward';

export interface ContactDeps {
  db: Kysely<Database>;
  queue: Pick<JobQueue, 'wake'>;
  contactTo?: string;
  log: FastifyBaseLogger;
}

/**
 * The message is stored first, so it is kept even when mail is down; with `CONTACT_TO` its
 * forwarding is queued in the same transaction (a job of the durable queue, retried while the
 * mail server is down) and recorded once it is sent.
 */
export async function receiveContactMessage(deps: ContactDeps, input: ContactInput, clientIp: string | null) {
  const saved = await deps.db.transaction().execute(async (trx) => {
    const row = await insertContactMessage(trx, { ...input, clientIp });
    if (deps.contactTo) await enqueueJob(trx, { kind: CONTACT_FORWARD_JOB, key: `${CONTACT_FORWARD_JOB}:${row.id}`, payload: { id: row.id } });
    return row;
  });
  if (deps.contactTo) deps.queue.wake();
  return { id: saved.id };
}

export function registerContactJob(queue: JobQueue, deps: { db: Kysely<Database>; contactTo?: string; send: RatedSend; transport: Mailer }) {
  queue.register<{ id: string }>({
    kind: CONTACT_FORWARD_JOB,
    async run(job, { signal }) {
      const message = await findContactMessage(deps.db, job.payload.id);
      if (!message || message.forwarded_at || !deps.contactTo) return;
      await deps.send(
        {
          to: deps.contactTo,
          replyTo: message.email,
          subject: `Contact message from ${message.email}`,
          text: `From: ${message.email}\nReceived: ${message.created_at.toISOString()}\n\n${message.message}\n`,
        },
        deps.transport,
        signal,
      );
      await markContactMessageForwarded(deps.db, message.id);
    },
  });
}
