import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ContactInput } from '../../shared/contact-schema.js';
import type { Database } from '../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import { insertContactMessage, markContactMessageForwarded } from './contact.repository.js';

export interface ContactDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  contactTo?: string;
  log: FastifyBaseLogger;
}

/**
 * The message is stored first, so it is kept even when mail is down; forwarding to
 * `CONTACT_TO` is best effort and recorded when it succeeds.
 */
export async function receiveContactMessage(deps: ContactDeps, input: ContactInput, clientIp: string | null) {
  const saved = await insertContactMessage(deps.db, { ...input, clientIp });
  if (deps.contactTo) {
    try {
      await deps.mailer.send({
        to: deps.contactTo,
        replyTo: input.email,
        subject: `Contact message from ${input.email}`,
        text: `From: ${input.email}\nReceived: ${saved.created_at.toISOString()}\n\n${input.message}\n`,
      });
      await markContactMessageForwarded(deps.db, saved.id);
    } catch (err) {
      deps.log.error({ err, contactMessageId: saved.id }, 'contact message stored but not forwarded');
    }
  }
  return { id: saved.id };
}
