import { expressionBuilder, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Who may see a blog, decided here and only here: every public query (home list, search, feeds,
 * sitemap, counts, author pages, one blog for someone other than its author) filters with these.
 *
 * A blog is public unless a moderator hid it or its author is suspended. Its author still sees it
 * (with the notice 'Hidden by a moderator'), whatever its state.
 */
export function isPubliclyVisible(eb: ExpressionBuilder<Database, 'blogs'>): Expression<SqlBool> {
  // `author_suspended_at` is the author's suspension, kept on each of their blogs (see the
  // moderation migration), so this reads the blog's own row and matches the partial indexes.
  return eb.and([eb('blogs.hidden_at', 'is', null), eb('blogs.author_suspended_at', 'is', null)]);
}

/** Public blogs, and the viewer's own in any state. */
export function isVisibleTo(viewerId: string | null) {
  return (eb: ExpressionBuilder<Database, 'blogs'>): Expression<SqlBool> =>
    viewerId === null ? isPubliclyVisible(eb) : eb.or([eb('blogs.user_id', '=', viewerId), isPubliclyVisible(eb)]);
}

/** The same rule for hand-written SQL over `blogs` (the sitemap's window query). */
export function publicBlogsCondition(): Expression<SqlBool> {
  return isPubliclyVisible(expressionBuilder<Database, 'blogs'>());
}
