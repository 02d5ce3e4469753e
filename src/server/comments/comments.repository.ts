import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { isCommentVisibleTo } from '../core/comment-visibility.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The columns every comment answer is built from: the comment and its author's e-mail, display name
 * and handle (`publicAuthorName` picks one), or for a reply from the fediverse its remote author's
 * name and profile page.
 */
function selectCommentRows(db: Db) {
  return db
    .selectFrom('comments')
    .leftJoin('user', 'user.id', 'comments.user_id')
    .select([
      'comments.id',
      'comments.blog_id',
      'comments.parent_id',
      'comments.user_id',
      'comments.body',
      'comments.html',
      'comments.created_at',
      'comments.updated_at',
      'comments.hidden_at',
      'comments.author_suspended_at',
      (eb) => eb.fn.coalesce('user.email', 'comments.remote_author_name', eb.val('')).as('author'),
      'user.email as author_email',
      'user.display_name as author_display_name',
      'user.handle as author_handle',
      'comments.remote_author_name',
      'comments.remote_author_url',
    ]);
}

export type CommentRow = Awaited<ReturnType<ReturnType<typeof selectCommentRows>['executeTakeFirstOrThrow']>>;

/**
 * A blog's comments, oldest first (`comments_blog_order_idx`). A comment a moderator hid is
 * left out for everyone but its own author.
 */
export async function selectBlogComments(db: Db, blogId: string, viewerId: string | null): Promise<CommentRow[]> {
  return selectCommentRows(db)
    .where('comments.blog_id', '=', blogId)
    .where(isCommentVisibleTo(viewerId))
    .orderBy('comments.created_at')
    .orderBy('comments.id')
    .execute();
}

export async function findCommentRow(db: Db, id: string): Promise<CommentRow | undefined> {
  return selectCommentRows(db).where('comments.id', '=', id).executeTakeFirst();
}

/** What a write needs to judge who may change a comment: its author, its blog's owner, whether it is hidden. */
export async function findCommentForWrite(db: Db, id: string) {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select(['comments.id', 'comments.blog_id', 'comments.user_id', 'comments.parent_id', 'comments.hidden_at', 'comments.author_suspended_at', 'blogs.user_id as blog_owner_id'])
    .where('comments.id', '=', id)
    .executeTakeFirst();
}

/**
 * Takes the blog's row lock before a comment is written, the lock the counting trigger needs
 * anyway: taken first, a comment and a concurrent deletion of the blog queue one behind the
 * other instead of deadlocking. Answers the blog's owner; undefined: no such blog.
 */
export async function lockBlogForComment(trx: Transaction<Database>, blogId: string) {
  return trx.selectFrom('blogs').select(['id', 'user_id']).where('id', '=', blogId).forNoKeyUpdate().executeTakeFirst();
}

/** The comment a reply answers, on the same blog. */
export async function findParentComment(db: Db, blogId: string, parentId: string) {
  return db
    .selectFrom('comments')
    .select(['id', 'user_id', 'parent_id', 'hidden_at', 'author_suspended_at'])
    .where('id', '=', parentId)
    .where('blog_id', '=', blogId)
    .executeTakeFirst();
}

export async function insertComment(
  db: Db,
  row: { blogId: string; userId: string; parentId: string | null; body: string; html: string },
): Promise<string> {
  const inserted = await db
    .insertInto('comments')
    .values({ blog_id: row.blogId, user_id: row.userId, parent_id: row.parentId, body: row.body, html: row.html })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Filtered by author too, so an edit can never touch someone else's comment. Returns whether a row changed. */
export async function updateOwnComment(db: Db, id: string, userId: string, changes: { body: string; html: string }): Promise<boolean> {
  const result = await db
    .updateTable('comments')
    .set({ body: changes.body, html: changes.html, updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Its replies go with it (the foreign key cascades), and the trigger counts them all off the blog. */
export async function deleteCommentRow(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
