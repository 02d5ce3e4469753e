import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Whether a blog may be shown to the public: the ONE place that decides it, used by every public
 * query (home list in each order, author pages, and whatever else lists blogs to anyone). Today
 * every blog is public; drafts, hidden blogs and suspended authors add their conditions here.
 */
export function isPubliclyVisible(_eb: ExpressionBuilder<Database, 'blogs'>): Expression<SqlBool> {
  return sql<SqlBool>`true`;
}
