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
  return eb.and([
    eb('blogs.hidden_at', 'is', null),
    eb.not(
      eb.exists(
        eb
          .selectFrom('user as suspended_author')
          .select(eb.lit(1).as('one'))
          .whereRef('suspended_author.id', '=', 'blogs.user_id')
          .where('suspended_author.suspended_at', 'is not', null),
      ),
    ),
  ]);
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
