import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface AuditEntry {
  /** Who did it: the signed-in account, or null for the command line (`npm run owner`). */
  actor: { id: string; email: string } | null;
  /** What, as `area.verb`: `settings.update`, `role.change`, `account.suspend`, `invitation.create`, `webhook.create`, ... */
  action: string;
  /** What it was done to: an account's e-mail, a webhook's id, ... */
  subject?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Records one admin action (issue 44); pass the action's transaction so both commit or neither. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: entry.actor?.id ?? null,
      actor_email: entry.actor?.email ?? null,
      action: entry.action,
      subject: entry.subject ?? null,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
    })
    .execute();
}
