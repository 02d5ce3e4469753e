import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import {
  SKIPPED_ROWS_LISTED,
  SUBSCRIBER_EMAIL_HEADERS,
  SUBSCRIBERS_PAGE_SIZE,
  type SkippedRow,
  type SubscriberCount,
  type SubscribersImportResult,
  type SubscribersPage,
  type SubscribersQuery,
} from '../../shared/subscribers-admin-schema.js';
import { recordAudit } from '../core/audit-log.js';
import { countFediverseFollowers } from '../core/fediverse-followers.js';
import type { SessionUser } from '../core/session-user.js';
import type { Database } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { parseCsv, toCsv } from './csv.js';
import { confirmationMail, type SubscriptionDeps } from './subscriptions.service.js';

type Db = Kysely<Database>;

/** /admin's Subscribers (issue 59): every e-mail subscription, for the owner and administrators. */

const authorName = (row: { author_display_name: string | null; author_handle: string | null; author_email: string | null }) =>
  row.author_display_name || row.author_handle || row.author_email || 'A deleted author';

const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function subscriptionRows(db: Db, search: string | undefined) {
  let query = db
    .selectFrom('subscriptions')
    .leftJoin('user as author', 'author.id', 'subscriptions.author_id')
    .select(['subscriptions.id', 'subscriptions.email', 'subscriptions.author_id', 'author.email as author_email', 'author.display_name as author_display_name', 'author.handle as author_handle', 'subscriptions.confirmed_at', 'subscriptions.created_at'])
    .orderBy('subscriptions.created_at', 'desc')
    .orderBy('subscriptions.id');
  if (search) query = query.where('subscriptions.email', 'like', likePattern(search));
  return query;
}

/** Per author with subscribers or fediverse followers, and the site as a whole first. */
async function subscriberCounts(db: Db): Promise<SubscriberCount[]> {
  const [rows, followers] = await Promise.all([
    db
      .selectFrom('subscriptions')
      .select((eb) => [
        'author_id',
        eb.fn.count<string>('id').filterWhere('confirmed_at', 'is not', null).as('confirmed'),
        eb.fn.count<string>('id').filterWhere('confirmed_at', 'is', null).as('waiting'),
      ])
      .groupBy('author_id')
      .execute(),
    countFediverseFollowers(db),
  ]);
  const authorIds = [...new Set([...rows.map((row) => row.author_id).filter((id): id is string => id !== null), ...followers.keys()])];
  const authors = authorIds.length ? await db.selectFrom('user').select(['id', 'email', 'display_name', 'handle']).where('id', 'in', authorIds).execute() : [];
  const site = rows.find((row) => row.author_id === null);
  const counts: SubscriberCount[] = [{ authorId: null, name: 'The whole site', confirmed: Number(site?.confirmed ?? 0), waiting: Number(site?.waiting ?? 0), fediverseFollowers: 0 }];
  for (const author of authors.sort((a, b) => (a.display_name || a.handle).localeCompare(b.display_name || b.handle))) {
    const row = rows.find((r) => r.author_id === author.id);
    counts.push({
      authorId: author.id,
      name: authorName({ author_display_name: author.display_name, author_handle: author.handle, author_email: author.email }),
      confirmed: Number(row?.confirmed ?? 0),
      waiting: Number(row?.waiting ?? 0),
      fediverseFollowers: followers.get(author.id) ?? 0,
    });
  }
  return counts;
}

export async function listSubscribers(db: Db, query: SubscribersQuery): Promise<SubscribersPage> {
  const [rows, counts] = await Promise.all([
    subscriptionRows(db, query.search)
      .offset((query.page - 1) * SUBSCRIBERS_PAGE_SIZE)
      .limit(SUBSCRIBERS_PAGE_SIZE + 1)
      .execute(),
    subscriberCounts(db),
  ]);
  return {
    items: rows.slice(0, SUBSCRIBERS_PAGE_SIZE).map((row) => ({
      id: row.id,
      email: row.email,
      target: row.author_id ? { kind: 'author' as const, authorId: row.author_id, authorName: authorName(row) } : { kind: 'site' as const },
      since: row.created_at.toISOString(),
      confirmed: row.confirmed_at !== null,
    })),
    page: query.page,
    hasMore: rows.length > SUBSCRIBERS_PAGE_SIZE,
    counts,
  };
}

/** 'Remove': the subscription ends at once, as its unsubscribe link would end it; the log keeps who removed which address. */
export async function removeSubscriber(db: Db, actor: SessionUser, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('subscriptions').where('id', '=', id).returning(['email', 'author_id', 'confirmed_at']).executeTakeFirst();
    if (!removed) throw notFound('No such subscription.');
    await recordAudit(trx, {
      actor: { id: actor.id, email: actor.email },
      action: 'subscriber.remove',
      subject: removed.email,
      before: { target: removed.author_id ? 'author' : 'site', confirmed: removed.confirmed_at !== null },
    });
  });
}

/** 'Export CSV': every subscription (the search's, when there is one), newest first. */
export async function exportSubscribersCsv(db: Db, search: string | undefined): Promise<string> {
  const rows = await subscriptionRows(db, search).execute();
  return toCsv([
    ['email', 'subscribed_to', 'since', 'status'],
    ...rows.map((row) => [row.email, row.author_id ? authorName(row) : 'the whole site', row.created_at.toISOString(), row.confirmed_at ? 'confirmed' : 'waiting']),
  ]);
}

const addressSchema = z.email();
const INSERT_BATCH = 500;

/**
 * 'Import CSV': the addresses of a members export (Ghost, Substack, Mailchimp, or any CSV whose
 * address column is headed `email` or `Email Address`), each subscribed to the whole site.
 * Confirmed at once only when the owner says they already opted in; otherwise each waits for its
 * confirmation, and is sent the mail a new subscriber is sent. An address subscribed to the site
 * already is left as it is: the same file imported twice adds nothing.
 */
export async function importSubscribers(
  deps: Pick<SubscriptionDeps, 'db' | 'mailer' | 'config' | 'siteSettings'>,
  actor: SessionUser,
  upload: { text: string; fileName: string; optedIn: boolean },
): Promise<SubscribersImportResult> {
  const rows = parseCsv(upload.text);
  const header = rows[0];
  const column = header?.cells.findIndex((cell) => (SUBSCRIBER_EMAIL_HEADERS as readonly string[]).includes(cell.trim().toLowerCase())) ?? -1;
  if (!header || column < 0) {
    throw badRequest('The file has no column of e-mail addresses: its first row must name one "email" or "Email Address", as Ghost’s, Substack’s and Mailchimp’s exports do.');
  }
  const skipped: SkippedRow[] = [];
  const wanted = new Map<string, number>();
  for (const row of rows.slice(1)) {
    const email = (row.cells[column] ?? '').trim().toLowerCase();
    if (!addressSchema.safeParse(email).success || email.length > 254) skipped.push({ line: row.line, email: (row.cells[column] ?? '').trim().slice(0, 254), reason: 'invalid address' });
    else if (wanted.has(email)) skipped.push({ line: row.line, email, reason: 'duplicate' });
    else wanted.set(email, row.line);
  }

  const created: Array<{ id: string; email: string }> = [];
  const addresses = [...wanted.keys()];
  for (let start = 0; start < addresses.length; start += INSERT_BATCH) {
    const batch = addresses.slice(start, start + INSERT_BATCH);
    // One statement a batch; an address the site has already is not touched (`on conflict do nothing`).
    const inserted = await deps.db
      .insertInto('subscriptions')
      .values(batch.map((email) => ({ email, author_id: null, confirmed_at: upload.optedIn ? sql<Date>`now()` : null })))
      .onConflict((conflict) => conflict.doNothing())
      .returning(['id', 'email'])
      .execute();
    created.push(...inserted);
  }
  const createdEmails = new Set(created.map((row) => row.email));
  for (const [email, line] of wanted) if (!createdEmails.has(email)) skipped.push({ line, email, reason: 'already subscribed' });
  skipped.sort((a, b) => a.line - b.line);

  if (!upload.optedIn && created.length > 0) {
    const { siteName } = await deps.siteSettings.get();
    // The queued mailer: each is a job of the durable queue, sent at the mail transport's pace.
    for (const row of created) await deps.mailer.send(confirmationMail(deps, siteName, row.email, row.id, null));
  }
  const result = { column: header.cells[column]!.trim(), imported: created.length, confirmed: upload.optedIn, skipped: skipped.slice(0, SKIPPED_ROWS_LISTED), skippedCount: skipped.length };
  await recordAudit(deps.db, {
    actor: { id: actor.id, email: actor.email },
    action: 'subscriber.import',
    subject: upload.fileName || 'a CSV file',
    after: { imported: result.imported, skipped: result.skippedCount, optedIn: upload.optedIn },
  });
  return result;
}
