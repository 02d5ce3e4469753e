import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** One batch of blogs after `afterId` (keyset order by id), with what the export writes of each. */
export function selectBlogBatch(db: Kysely<Database>, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('blogs')
    .select(['id', 'user_id', 'title', 'body', 'html', 'status', 'tags', 'image_key', 'created_at', 'updated_at', 'excerpt', 'hidden_at'])
    .orderBy('id')
    .limit(limit);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.execute();
}

export function selectInlineImageKeys(db: Kysely<Database>, blogIds: readonly string[]) {
  if (blogIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('inline_images').select(['key', 'blog_id']).where('blog_id', 'in', blogIds).execute();
}

/** The authors of blogs: the staff of a Ghost site. */
export function selectBlogAuthors(db: Kysely<Database>) {
  return db
    .selectFrom('user')
    .select(['id', 'name', 'email', 'createdAt', 'updatedAt'])
    .where((eb) => eb.exists(eb.selectFrom('blogs').select('blogs.id').whereRef('blogs.user_id', '=', 'user.id')))
    .orderBy('createdAt')
    .execute();
}

export function selectCommentBatch(db: Kysely<Database>, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('comments')
    .innerJoin('user', 'user.id', 'comments.user_id')
    .select(['comments.id', 'comments.blog_id', 'comments.parent_id', 'comments.body', 'comments.html', 'comments.created_at', 'user.email', 'user.name'])
    .orderBy('comments.id')
    .limit(limit);
  if (afterId !== null) query = query.where('comments.id', '>', afterId);
  return query.execute();
}
