import { type Kysely, sql } from 'kysely';
import { blogVisibleTo } from '../core/blog-visibility.js';
import type { Database } from '../db/schema.js';

/**
 * Every element of `column` (a tag, or a lexeme of a tsvector) over the public blogs, with its
 * number of blogs, counted afresh with THE visibility rule: what a kept count table must equal.
 */
export async function recountPublicBlogsPer(db: Kysely<Database>, column: 'tags' | 'title_tsv' | 'search_tsv'): Promise<Record<string, number>> {
  const rows = await db
    // `counted(key)`: an array's element, or a tsvector's first column (its lexeme).
    .selectFrom(['blogs', sql<{ key: string }>`unnest(${sql.ref(`blogs.${column}`)})`.as<'counted'>(sql`counted(key)`)])
    .select(['counted.key', sql<number>`count(*)::int`.as('blogs')])
    .where(blogVisibleTo(null))
    .groupBy('counted.key')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.blogs]));
}

/** Five words; `concurrentWordOrder(i)` gives them in another order for each writer `i`, so writers taking them in order would cross. */
export const CONCURRENT_WORDS = ['wallaroo', 'dingo', 'emu', 'koala', 'possum'];
export const concurrentWordOrder = (i: number) =>
  [...CONCURRENT_WORDS.slice(i % CONCURRENT_WORDS.length), ...CONCURRENT_WORDS.slice(0, i % CONCURRENT_WORDS.length)].reverse();
