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

/**
 * Runs `check` with the kept count of `lexeme` in `table` changed to `blogs` behind the triggers'
 * back (so a total read from the count shows it), then puts the count back as it was.
 */
export async function withKeptCount(db: Kysely<Database>, table: 'title_word_counts' | 'text_word_counts', lexeme: string, blogs: number, check: () => Promise<void>): Promise<void> {
  const kept = await db.selectFrom(table).select('blogs').where('lexeme', '=', lexeme).executeTakeFirstOrThrow();
  await db.updateTable(table).set({ blogs }).where('lexeme', '=', lexeme).execute();
  try {
    await check();
  } finally {
    await db.updateTable(table).set({ blogs: kept.blogs }).where('lexeme', '=', lexeme).execute();
  }
}

/** The number of public blogs whose `column` matches the web search `term`, counted afresh through the index with THE visibility rule. */
export async function countPublicMatches(db: Kysely<Database>, column: 'title_tsv' | 'search_tsv', term: string): Promise<number> {
  const row = await db
    .selectFrom('blogs')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(sql<boolean>`${sql.ref(column)} @@ websearch_to_tsquery('english', ${term})`)
    .where(blogVisibleTo(null))
    .executeTakeFirstOrThrow();
  return row.n;
}
