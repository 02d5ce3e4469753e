import { type Kysely, sql } from 'kysely';
import { isVisibleTo } from '../blogs/blog-visibility.js';
import type { Database, VoteDirection } from '../db/schema.js';

/**
 * Records the user's vote in one statement: a new vote is inserted, a vote the other way is
 * switched, and a vote the same way is left alone. Answers whether a row changed; the
 * `votes_apply_counts` trigger has then already moved the blog's counts in this transaction.
 */
export async function upsertVote(
  db: Kysely<Database>,
  vote: { blogId: string; userId: string; direction: VoteDirection },
): Promise<boolean> {
  const changed = await db
    .insertInto('votes')
    .values({ blog_id: vote.blogId, user_id: vote.userId, direction: vote.direction })
    .onConflict((conflict) =>
      conflict
        .columns(['blog_id', 'user_id'])
        .doUpdateSet({ direction: (eb) => eb.ref('excluded.direction'), updated_at: sql`now()` })
        .where((eb) => eb('votes.direction', '<>', eb.ref('excluded.direction'))),
    )
    .returning('direction')
    .executeTakeFirst();
  return changed !== undefined;
}

/**
 * Takes the blog's row lock before the vote is written, the lock the counting trigger needs
 * anyway. Taken first, a vote and a concurrent deletion or edit of the blog queue one behind the
 * other instead of each holding half of what the other needs (a deadlock). False: no such blog.
 */
export async function lockBlogForVote(db: Kysely<Database>, blogId: string, voterId: string): Promise<boolean> {
  // A blog the voter may not see (hidden by a moderator) is no blog to them.
  const row = await db
    .selectFrom('blogs')
    .select('blogs.id')
    .where('blogs.id', '=', blogId)
    .where(isVisibleTo(voterId))
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
