import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * THE rule for who may see a blog, as a condition on `blogs`; every query that shows blogs to
 * someone (home list in each order, author pages, search and its count, feeds, sitemap, one blog,
 * votes, comments, the owner checks of edit and delete) filters with it, so a new reason to hide a
 * blog is added here and nowhere else.
 *
 * A blog is public when it is published, no moderator hid it and its author is not suspended.
 * - `viewerId = null`: the public, and every list, feed and count, even for a signed-in reader
 *   (a draft or a hidden blog is never listed, not even to its author).
 * - `viewerId` set: one blog as that viewer sees it: everything public, and their own blogs in
 *   any state (a hidden one with the notice 'Hidden by a moderator').
 *
 * Every column read is the blog's own (`author_suspended_at` is the author's suspension, kept on
 * each of their blogs by the moderation migration), and the indexes of the lists carry them all
 * (migrations 05, 08 and 09), so the lists stay index scans that skip entries without visiting the
 * table. The status is compared to a literal, not a parameter, so the condition reads the same in
 * every plan.
 */
export function blogVisibleTo(viewerId: string | null): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'blogs'>();
  const isPublic = eb.and([
    eb('blogs.status', '=', sql.lit('published')),
    eb('blogs.hidden_at', 'is', null),
    eb('blogs.author_suspended_at', 'is', null),
  ]);
  return viewerId === null ? isPublic : eb.or([isPublic, eb('blogs.user_id', '=', viewerId)]);
}
