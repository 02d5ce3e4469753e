import type { Kysely } from 'kysely';
import type { AuditLogPage } from '../../shared/audit-log-schema.js';
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

/** One page of the log, newest first: entries older than `before` (an entry's id), and the cursor of the page after. */
export async function auditLogPage(db: Kysely<Database>, options: { before?: string; limit: number }): Promise<AuditLogPage> {
  let query = db.selectFrom('audit_log').select(['id', 'actor_email', 'action', 'subject', 'before', 'after', 'created_at']).orderBy('id', 'desc').limit(options.limit + 1);
  if (options.before) query = query.where('id', '<', options.before);
  const rows = await query.execute();
  const page = rows.slice(0, options.limit);
  return {
    items: page.map((row) => ({
      id: String(row.id),
      actor: row.actor_email,
      action: row.action,
      subject: row.subject,
      before: row.before,
      after: row.after,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    nextBefore: rows.length > options.limit ? String(page.at(-1)!.id) : null,
  };
}
