import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** A subscription with what its links and pages show: the address, and who the author is when it is to one. */
export interface SubscriptionRow {
  id: string;
  email: string;
  author_id: string | null;
  author_email: string | null;
  author_display_name: string | null;
  author_handle: string | null;
  confirmed_at: Date | null;
  created_at: Date;
}

const withAuthor = (db: Db) =>
  db
    .selectFrom('subscriptions')
    .leftJoin('user as author', 'author.id', 'subscriptions.author_id')
    .select(['subscriptions.id', 'subscriptions.email', 'subscriptions.author_id', 'author.email as author_email', 'author.display_name as author_display_name', 'author.handle as author_handle', 'subscriptions.confirmed_at', 'subscriptions.created_at']);

export function findSubscription(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  return withAuthor(db).where('subscriptions.id', '=', id).executeTakeFirst();
}

/** The reader's subscriptions: those they made signed in, and those of their verified address. */
export function selectUserSubscriptions(db: Db, user: { id: string; email: string; emailVerified: boolean }): Promise<SubscriptionRow[]> {
  return withAuthor(db)
    .where((eb) => eb.or([eb('subscriptions.user_id', '=', user.id), ...(user.emailVerified ? [eb('subscriptions.email', '=', user.email.toLowerCase())] : [])]))
    .orderBy('subscriptions.created_at')
    .execute();
}

/**
 * Adds the address's subscription to the target, or finds the one there is. `confirmedBy`: a
 * signed-in reader's own verified address, confirmed at once (and linked to the account).
 */
export async function upsertSubscription(
  db: Db,
  row: { email: string; authorId: string | null; confirmedBy?: string },
): Promise<{ id: string; confirmed: boolean }> {
  const confirmed = row.confirmedBy !== undefined;
  const { rows } = await sql<{ id: string; confirmed_at: Date | null }>`
    insert into subscriptions (email, author_id, user_id, confirmed_at)
    values (${row.email}, ${row.authorId}, ${row.confirmedBy ?? null}, ${confirmed ? sql`now()` : null})
    on conflict (email, coalesce(author_id, '')) do update
      set confirmed_at = case when ${confirmed} then coalesce(subscriptions.confirmed_at, now()) else subscriptions.confirmed_at end,
          user_id = coalesce(subscriptions.user_id, excluded.user_id)
    returning id, confirmed_at`.execute(db);
  return { id: rows[0]!.id, confirmed: rows[0]!.confirmed_at !== null };
}

export async function confirmSubscription(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ confirmed_at: sql<Date>`coalesce(confirmed_at, now())` })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteSubscription(db: Db, id: string, owner?: { id: string; email: string; emailVerified: boolean }): Promise<boolean> {
  let query = db.deleteFrom('subscriptions').where('id', '=', id);
  if (owner) {
    query = query.where((eb) => eb.or([eb('user_id', '=', owner.id), ...(owner.emailVerified ? [eb('email', '=', owner.email.toLowerCase())] : [])]));
  }
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function countConfirmedSubscribers(db: Db, authorId: string): Promise<number> {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('author_id', '=', authorId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** An account that can be subscribed to: it exists and is not suspended. */
export async function findAuthor(db: Db, id: string): Promise<{ id: string; email: string; display_name: string | null; handle: string } | undefined> {
  return db.selectFrom('user').select(['id', 'email', 'display_name', 'handle']).where('id', '=', id).where('suspended_at', 'is', null).executeTakeFirst();
}

export async function findUserVerification(db: Db, id: string): Promise<{ email: string; emailVerified: boolean } | undefined> {
  return db.selectFrom('user').select(['email', 'emailVerified']).where('id', '=', id).executeTakeFirst();
}

/**
 * One `new-post-mail` job per confirmed address subscribed to the site or to the blog's author
 * (an address subscribed to both hears once; the author does not hear of their own blog), in one
 * statement: the jobs exist all together or not at all. Returns how many were queued.
 */
export async function queueNewPostMails(db: Db, blog: { id: string; authorId: string }, kind: string): Promise<number> {
  const result = await sql`
    insert into queued_jobs (kind, key, payload)
    select ${kind}, ${kind} || ':' || ${blog.id} || ':' || s.email,
           jsonb_build_object('blogId', ${blog.id}::text, 'subscriptionId', (array_agg(s.id::text order by s.author_id nulls last))[1])
    from subscriptions s
    where s.confirmed_at is not null
      and (s.author_id is null or s.author_id = ${blog.authorId})
      and not exists (select 1 from "user" u where u.id = ${blog.authorId} and lower(u.email) = s.email)
    group by s.email
    on conflict (key) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
