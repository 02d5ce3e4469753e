import { type Kysely, sql } from 'kysely';
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

export async function selectVoteCounts(db: Kysely<Database>, blogId: string) {
  return db
    .selectFrom('blogs')
    .select(['upvotes', 'downvotes', 'rating'])
    .where('id', '=', blogId)
    .executeTakeFirst();
}
