import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export function selectOwnBlogs(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('blogs')
    .select(['id', 'title', 'body', 'status', 'tags', 'image_key', 'created_at', 'updated_at', 'publish_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The images the user uploaded into texts (held by a blog or not yet). */
export function selectOwnInlineImageKeys(db: Kysely<Database>, userId: string) {
  return db.selectFrom('inline_images').select('key').where('user_id', '=', userId).orderBy('key').execute();
}

export function selectOwnComments(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select(['comments.id', 'comments.blog_id', 'blogs.title as blog_title', 'comments.parent_id', 'comments.body', 'comments.created_at', 'comments.updated_at'])
    .where('comments.user_id', '=', userId)
    .orderBy('comments.created_at')
    .execute();
}

export function selectOwnVotes(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('votes')
    .innerJoin('blogs', 'blogs.id', 'votes.blog_id')
    .select(['votes.blog_id', 'blogs.title as blog_title', 'votes.direction', 'votes.created_at', 'votes.updated_at'])
    .where('votes.user_id', '=', userId)
    .orderBy('votes.created_at')
    .execute();
}

export function selectAccountRow(db: Kysely<Database>, userId: string) {
  return db.selectFrom('user').select(['email', 'name', 'createdAt']).where('id', '=', userId).executeTakeFirst();
}
