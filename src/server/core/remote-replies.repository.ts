import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { blogVisibleTo } from './blog-visibility.js';

/**
 * The queries of the fediverse's replies (`remote-replies.ts` keeps the rules): the blogs they
 * answer and the comment rows they are kept as, found by their remote object and actor.
 */
type Db = Kysely<Database> | Transaction<Database>;

/** Whether the blog exists and the public may see it. */
export async function blogIsPublic(db: Db, blogId: string): Promise<boolean> {
  const blog = await db.selectFrom('blogs').select('id').where('id', '=', blogId).where(blogVisibleTo(null)).executeTakeFirst();
  return blog !== undefined;
}

/** The comment a remote object was kept as, whoever its actor; undefined when none is. */
export async function findCommentIdOfRemoteObject(db: Db, objectId: string): Promise<string | undefined> {
  const row = await db.selectFrom('comments').select('id').where('remote_object_id', '=', objectId).executeTakeFirst();
  return row?.id;
}

/** A comment of that blog (top-level or a reply); undefined when the blog has no such comment. */
export async function findCommentOfBlog(db: Db, blogId: string, commentId: string) {
  return db
    .selectFrom('comments')
    .select(['id', 'parent_id'])
    .where('id', '=', commentId)
    .where('blog_id', '=', blogId)
    .executeTakeFirst();
}

/**
 * A remote reply's comment row (no local author). When another delivery of the same object has
 * just inserted its own, that row's id is answered, `created` false.
 */
export async function insertRemoteReplyComment(
  db: Db,
  row: {
    blogId: string;
    parentId: string | null;
    body: string;
    html: string;
    objectId: string;
    actorId: string;
    authorName: string;
    authorUrl: string | null;
    /** When it was written, if it is to be kept; else now. */
    createdAt: Date | null;
  },
): Promise<{ commentId: string; created: boolean }> {
  const inserted = await db
    .insertInto('comments')
    .values({
      blog_id: row.blogId,
      user_id: null,
      parent_id: row.parentId,
      body: row.body,
      html: row.html,
      remote_object_id: row.objectId,
      remote_actor_id: row.actorId,
      remote_author_name: row.authorName,
      remote_author_url: row.authorUrl,
      ...(row.createdAt ? { created_at: row.createdAt, updated_at: row.createdAt } : {}),
    })
    // The same object delivered twice at once (a shared inbox and a personal one): one comment.
    .onConflict((oc) => oc.column('remote_object_id').where('remote_object_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const raced = await db.selectFrom('comments').select('id').where('remote_object_id', '=', row.objectId).executeTakeFirstOrThrow();
    return { commentId: raced.id, created: false };
  }
  return { commentId: inserted.id, created: true };
}

/** Matched on the actor too: no one changes another's reply. */
export async function findRemoteReply(db: Db, reply: { objectId: string; actorId: string }) {
  return db
    .selectFrom('comments')
    .select(['id', 'blog_id', 'remote_author_url'])
    .where('remote_object_id', '=', reply.objectId)
    .where('remote_actor_id', '=', reply.actorId)
    .executeTakeFirst();
}

/** A remote reply's new text, edited now. */
export async function updateRemoteReplyText(db: Db, commentId: string, text: { body: string; html: string }): Promise<void> {
  await db
    .updateTable('comments')
    .set({ body: text.body, html: text.html, updated_at: new Date() })
    .where('id', '=', commentId)
    .execute();
}

/** Deletes the comment; its replies go with it (the foreign key cascades). */
export async function deleteComment(db: Db, commentId: string): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', commentId).execute();
}
