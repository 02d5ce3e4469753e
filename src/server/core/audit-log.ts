import type { Kysely } from 'kysely';
import { AUDIT_KINDS, auditKindOf, type AuditChange, type AuditKind, type AuditLogPage } from '../../shared/audit-log-schema.js';
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_VALUE_LENGTH = 120;

/** A recorded value in words: strings as they are, the rest as compact JSON, cut at 120 characters. */
function inWords(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields that differ between the two states; a state that is not an object is one field, 'value'. */
export function changedFields(before: unknown, after: unknown): AuditChange[] {
  if (!isRecord(before) && !isRecord(after)) {
    if (before == null && after == null) return [];
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ field: 'value', before: inWords(before), after: inWords(after) }];
  }
  const was = isRecord(before) ? before : {};
  const is = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])];
  return fields
    .filter((field) => JSON.stringify(was[field]) !== JSON.stringify(is[field]))
    .map((field) => ({ field, before: inWords(was[field]), after: inWords(is[field]) }));
}

const hostOf = (url: unknown) => {
  try {
    return typeof url === 'string' ? new URL(url).host : null;
  } catch {
    return null;
  }
};

interface Row {
  subject: string | null;
  action: string;
  before: unknown;
  after: unknown;
}

/**
 * The subjects of a page in words (issue 59), one query per kind of subject, never one per row:
 * accounts by name and e-mail, blogs by title, webhooks by their event and host (a deleted one
 * by the state the log kept of it).
 */
async function subjectLabels(db: Kysely<Database>, rows: Row[]): Promise<(string | null)[]> {
  const subjects = [...new Set(rows.map((row) => row.subject).filter((subject): subject is string => subject !== null))];
  const emails = subjects.filter((subject) => subject.includes('@')).map((email) => email.toLowerCase());
  const ids = subjects.filter((subject) => UUID.test(subject));
  const [people, blogs, webhooks] = await Promise.all([
    emails.length ? db.selectFrom('user').select(['email', 'name', 'display_name']).where('email', 'in', emails).execute() : [],
    ids.length ? db.selectFrom('blogs').select(['id', 'title']).where('id', 'in', ids).execute() : [],
    ids.length ? db.selectFrom('webhooks').select(['id', 'event', 'target_url']).where('id', 'in', ids).execute() : [],
  ]);
  const nameOf = new Map(people.map((person) => [person.email.toLowerCase(), person.display_name || person.name]));
  const titleOf = new Map(blogs.map((blog) => [blog.id, blog.title]));
  const webhookOf = new Map(webhooks.map((webhook) => [webhook.id, `${webhook.event} → ${hostOf(webhook.target_url) ?? webhook.target_url}`]));
  return rows.map((row) => {
    const subject = row.subject;
    if (subject === null) return null;
    if (subject.includes('@')) {
      const name = nameOf.get(subject.toLowerCase());
      return name ? `${name} <${subject}>` : subject;
    }
    if (!UUID.test(subject)) return row.action.startsWith('page.') ? `/page/${subject}` : subject;
    const known = titleOf.get(subject) ?? webhookOf.get(subject);
    if (known) return known;
    const kept = isRecord(row.before) ? row.before : isRecord(row.after) ? row.after : {};
    if (typeof kept.event === 'string') return `${kept.event} → ${hostOf(kept.targetUrl) ?? 'a deleted webhook'}`;
    if (typeof kept.title === 'string') return kept.title;
    if (row.action.startsWith('integration.') && typeof kept.name === 'string') return `Integration ‘${kept.name}’`;
    return row.action.startsWith('webhook.') ? 'A deleted webhook' : 'Something since deleted';
  });
}

/** One page of the log, newest first: entries older than `before` (an entry's id) of one kind or all, and the cursor of the page after. */
export async function auditLogPage(db: Kysely<Database>, options: { before?: string; kind?: AuditKind; limit: number }): Promise<AuditLogPage> {
  let query = db
    .selectFrom('audit_log')
    .leftJoin('user', 'user.id', 'audit_log.actor_id')
    .select(['audit_log.id', 'audit_log.actor_email', 'user.name', 'user.display_name', 'audit_log.action', 'audit_log.subject', 'audit_log.before', 'audit_log.after', 'audit_log.created_at'])
    .orderBy('audit_log.id', 'desc')
    .limit(options.limit + 1);
  if (options.before) query = query.where('audit_log.id', '<', options.before);
  if (options.kind) {
    const prefixes = AUDIT_KINDS[options.kind].prefixes;
    query = query.where((eb) => eb.or(prefixes.map((prefix) => eb('audit_log.action', 'like', `${prefix}.%`))));
  }
  const rows = await query.execute();
  const page = rows.slice(0, options.limit);
  const labels = await subjectLabels(db, page);
  return {
    items: page.map((row, at) => ({
      id: String(row.id),
      actor: row.actor_email,
      actorName: row.display_name || row.name || null,
      action: row.action,
      kind: auditKindOf(row.action),
      subject: row.subject,
      subjectLabel: labels[at] ?? null,
      changes: changedFields(row.before, row.after),
      before: row.before,
      after: row.after,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    nextBefore: rows.length > options.limit ? String(page.at(-1)!.id) : null,
  };
}
