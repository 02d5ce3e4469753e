import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * THE rule for who may see a blog, as a condition on `blogs`; every query that shows blogs to
 * someone (home list, search and its count, feeds, sitemap, one blog, votes, the owner checks of
 * edit and delete) filters with it, so a new reason to hide a blog is added here and nowhere else.
 *
 * - `viewerId = null`: the public, and every list, feed and count, even for a signed-in reader
 *   (a draft is never listed publicly, not even to its author).
 * - `viewerId` set: one blog as that viewer sees it: everything public, and their own blogs.
 *
 * A draft is seen by its owner only. The status is compared to a literal, not a parameter, so
 * the condition reads the same in every plan and can be checked on the index entries that carry
 * `status` (migration 2026-11-23-05).
 */
export function blogVisibleTo(viewerId: string | null): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'blogs'>();
  const isPublic = eb('blogs.status', '=', sql.lit('published'));
  return viewerId === null ? isPublic : eb.or([isPublic, eb('blogs.user_id', '=', viewerId)]);
}
