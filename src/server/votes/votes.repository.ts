import { type Kysely, sql } from 'kysely';
import type { WriteNotice } from '../cache/cache-invalidation.js';
import { executePrepared } from '../db/prepared.js';
import type { Database, VoteDirection } from '../db/schema.js';
import { blogVisibleTo } from '../core/blog-visibility.js';

export interface AppliedVote {
  /** False: no such blog. */
  found: boolean;
  /** False: the user had already voted this way (nothing was written). */
  changed: boolean;
  /** The blog's counts once this vote is in (meaningful when `found`). */
  upvotes: number;
  downvotes: number;
}

/**
 * A vote in one statement (one round trip, its own transaction); the cache notice, when given,
 * rides along (step 4):
 *  1. `target` takes the blog's row lock first, the lock the counting trigger needs anyway. Taken
 *     first, a vote and a concurrent deletion or edit of the blog queue one behind the other
 *     instead of each holding half of what the other needs (a deadlock, found by the soak test).
 *     A locking read returns the row's latest version, and no count can move while the lock is
 *     held, so its counts are exact for the moment just before this vote.
 *  2. `written` inserts the vote, switches a vote the other way, or leaves a vote the same way
 *     alone; `xmax = 0` tells an inserted row from a switched one. The `votes_apply_counts`
 *     trigger moves the stored counts.
 *  3. The answer's counts are the locked counts plus this vote's own change (+1 for a new vote;
 *     +1 and −1 for a switch), which is what the trigger wrote: a statement cannot read its own
 *     trigger's update, and a second read would be another round trip.
 */
export async function applyVote(
  db: Kysely<Database>,
  vote: { blogId: string; userId: string; direction: VoteDirection },
  notice?: WriteNotice,
): Promise<AppliedVote> {
  // 4. With a notice: sent only when a vote was written, and delivered when it commits.
  const notified = notice
    ? sql`, notified as (select pg_notify(${notice.channel}, ${notice.payload}) from written)`
    : sql``;
  const countNotified = notice ? sql`, (select count(*) from notified) as notified` : sql``;
  const rows = await executePrepared(db, sql<{ found: boolean; inserted: boolean | null; upvotes: number | null; downvotes: number | null }>`
    with target as (
      select id, upvotes, downvotes from blogs where id = ${vote.blogId} and ${blogVisibleTo(vote.userId)} for no key update
    ), written as (
      insert into votes (blog_id, user_id, direction)
      select id, ${vote.userId}, ${vote.direction} from target
      on conflict (blog_id, user_id) do update
        set direction = excluded.direction, updated_at = now()
        where votes.direction <> excluded.direction
      returning (xmax = 0) as inserted
    )${notified}
    select exists (select 1 from target) as found,
           (select inserted from written) as inserted,
           (select upvotes from target) as upvotes,
           (select downvotes from target) as downvotes${countNotified}`);
  const row = rows[0]!;
  if (!row.found || row.inserted === null) return { found: row.found, changed: false, upvotes: row.upvotes ?? 0, downvotes: row.downvotes ?? 0 };
  const up = vote.direction === 'up';
  const switched = !row.inserted;
  return {
    found: true,
    changed: true,
    upvotes: row.upvotes! + (up ? 1 : switched ? -1 : 0),
    downvotes: row.downvotes! + (up ? (switched ? -1 : 0) : 1),
  };
}

/**
 * Takes the blog's row lock before the vote is written, the lock the counting trigger needs
 * anyway. Taken first, a vote and a concurrent deletion or edit of the blog queue one behind the
 * other instead of each holding half of what the other needs (a deadlock). False: no such blog
 * that the voter may see.
 */
export async function lockBlogForVote(db: Kysely<Database>, blogId: string, voterId: string): Promise<boolean> {
  const row = await db
    .selectFrom('blogs')
    .select('id')
    .where('id', '=', blogId)
    .where(blogVisibleTo(voterId))
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function selectVoteCounts(db: Kysely<Database>, blogId: string) {
  return db
    .selectFrom('blogs')
    .select(['upvotes', 'downvotes', 'rating'])
    .where('id', '=', blogId)
    .executeTakeFirst();
}

/** Takes the user's vote on the blog back; the trigger moves the counts. Answers whether there was one. */
export async function deleteVote(db: Kysely<Database>, vote: { blogId: string; userId: string }): Promise<boolean> {
  const result = await db.deleteFrom('votes').where('blog_id', '=', vote.blogId).where('user_id', '=', vote.userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
