import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Who may see a comment, decided here: everyone, unless a moderator hid it or its author is
 * suspended (kept on the comment's row, see the moderation migration); its author always.
 * The blog it is on must be visible too (the service checks that with the blog's own rule).
 */
export function isCommentPubliclyVisible(eb: ExpressionBuilder<Database, 'comments'>): Expression<SqlBool> {
  return eb.and([eb('comments.hidden_at', 'is', null), eb('comments.author_suspended_at', 'is', null)]);
}

export function isCommentVisibleTo(viewerId: string | null) {
  return (eb: ExpressionBuilder<Database, 'comments'>): Expression<SqlBool> =>
    viewerId === null ? isCommentPubliclyVisible(eb) : eb.or([eb('comments.user_id', '=', viewerId), isCommentPubliclyVisible(eb)]);
}

/** The same rule on a row already read. */
export function commentRowVisibleTo(row: { user_id: string | null; hidden_at: Date | null; author_suspended_at: Date | null }, viewerId: string | null): boolean {
  return (row.hidden_at === null && row.author_suspended_at === null) || (row.user_id !== null && row.user_id === viewerId);
}
