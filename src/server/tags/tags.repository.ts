import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Tags as `tag_counts` keeps them: every tag some public blog carries, with how many do (kept
 * exact by triggers, migration 2026-11-25-04). A tag no public blog carries is not there.
 */

/** One page of tags, the most used first (`tag_counts_most_used_idx`), then by name. */
export function selectTagsPage(db: Kysely<Database>, options: { offset: number; limit: number }) {
  return db
    .selectFrom('tag_counts')
    .select(['tag', 'blogs'])
    .orderBy('blogs', 'desc')
    .orderBy('tag')
    .offset(options.offset)
    .limit(options.limit);
}

/**
 * The most used tags starting with `prefix`: a range of the primary key (collation "C", so the
 * range is the prefix's in code point order, in every plan), sorted by use.
 */
export function selectTagSuggestions(db: Kysely<Database>, prefix: string, limit: number) {
  let query = db.selectFrom('tag_counts').select(['tag', 'blogs']);
  if (prefix !== '') query = query.where('tag', '>=', prefix).where('tag', '<', `${prefix}\u{10FFFF}`);
  return query.orderBy('blogs', 'desc').orderBy('tag').limit(limit);
}
