import { z } from 'zod';

/** How many of the newest mails /admin's Outbox lists. */
export const OUTBOX_LIMIT = 20;

/** One mail the site wrote to its outbox folder (no SMTP server): who to, what about, when, and its links to this site. */
export const outboxMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  /** When it was written (ISO 8601). */
  sentAt: z.string(),
  /** The mail's links to this site, whole (a sign-in link, a confirmation): the Outbox makes them clickable. */
  links: z.array(z.string()),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const outboxSchema = z.object({ mails: z.array(outboxMailSchema) });
export type Outbox = z.infer<typeof outboxSchema>;
