import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { blogVisibleTo } from '../core/blog-visibility.js';

/** A local author as the fediverse may see them: never suspended, never their e-mail. */
export async function findLocalActor(db: Kysely<Database>, handle: string) {
  if (!/^[a-z0-9_]{3,30}$/.test(handle)) return undefined;
  return db
    .selectFrom('user')
    .select(['id', 'handle', 'display_name', 'bio'])
    .where('handle', '=', handle)
    .where('suspended_at', 'is', null)
    .executeTakeFirst();
}

export async function findAuthorOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('user').select(['id', 'handle']).where('id', '=', userId).where('suspended_at', 'is', null).executeTakeFirst();
}

/** Whether `handle` names an account, suspended or not (a suspended one answers 410, not 404). */
export async function findHandleOwner(db: Kysely<Database>, handle: string) {
  if (!/^[a-z0-9_]{3,30}$/.test(handle)) return undefined;
  return db.selectFrom('user').select(['id', 'suspended_at']).where('handle', '=', handle).executeTakeFirst();
}

export async function findKey(db: Kysely<Database>, userId: string, algorithm: 'RSASSA-PKCS1-v1_5' | 'Ed25519') {
  return db.selectFrom('federation_keys').select(['private_key', 'public_key']).where('user_id', '=', userId).where('algorithm', '=', algorithm).executeTakeFirst();
}

/** False when a pair of that algorithm was there already. */
export async function saveKey(db: Kysely<Database>, row: { user_id: string; algorithm: 'RSASSA-PKCS1-v1_5' | 'Ed25519'; private_key: string; public_key: string }) {
  const result = await db.insertInto('federation_keys').values(row).onConflict((conflict) => conflict.columns(['user_id', 'algorithm']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function countUsage(db: Kysely<Database>) {
  const users = await db.selectFrom('user').select((eb) => eb.fn.countAll<string>().as('n')).where('suspended_at', 'is', null).executeTakeFirstOrThrow();
  const posts = await db.selectFrom('blogs').select((eb) => eb.fn.countAll<string>().as('n')).where(blogVisibleTo(null)).executeTakeFirstOrThrow();
  const comments = await db.selectFrom('comments').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return { users: Number(users.n), posts: Number(posts.n), comments: Number(comments.n) };
}

export async function listPublicBlogIds(db: Kysely<Database>, userId: string, page: { offset: number; limit: number }) {
  const rows = await db
    .selectFrom('blogs')
    .select('id')
    .where('user_id', '=', userId)
    .where(blogVisibleTo(null))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows.map((row) => row.id);
}

export async function countPublicBlogs(db: Kysely<Database>, userId: string) {
  const row = await db.selectFrom('blogs').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).where(blogVisibleTo(null)).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function saveFollower(
  db: Kysely<Database>,
  row: { user_id: string; actor_id: string; inbox_url: string; shared_inbox_url: string | null; handle: string | null; name: string | null; follow_id: string },
) {
  await db
    .insertInto('federation_followers')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'actor_id']).doUpdateSet({ inbox_url: row.inbox_url, shared_inbox_url: row.shared_inbox_url, handle: row.handle, name: row.name, follow_id: row.follow_id }),
    )
    .execute();
}

export async function removeFollower(db: Kysely<Database>, userId: string, actorId: string) {
  await db.deleteFrom('federation_followers').where('user_id', '=', userId).where('actor_id', '=', actorId).execute();
}

export async function listFollowers(db: Kysely<Database>, userId: string) {
  return db.selectFrom('federation_followers').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function countFollowers(db: Kysely<Database>, userId: string) {
  const row = await db.selectFrom('federation_followers').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The row's state after the write: a follow already accepted stays accepted. */
export async function saveFollowing(
  db: Kysely<Database>,
  row: { user_id: string; actor_id: string; handle: string; name: string | null; inbox_url: string; follow_id: string },
): Promise<'pending' | 'accepted'> {
  const saved = await db
    .insertInto('federation_following')
    .values(row)
    .onConflict((conflict) => conflict.columns(['user_id', 'actor_id']).doUpdateSet({ handle: row.handle, name: row.name, inbox_url: row.inbox_url, follow_id: row.follow_id }))
    .returning('state')
    .executeTakeFirstOrThrow();
  return saved.state;
}

/** The remote actor accepted the local user's follow. */
export async function acceptFollowing(db: Kysely<Database>, accept: { userId: string; actorId: string }) {
  await db.updateTable('federation_following').set({ state: 'accepted' }).where('user_id', '=', accept.userId).where('actor_id', '=', accept.actorId).execute();
}

export async function acceptFollowingById(db: Kysely<Database>, accept: { actorId: string; followId: string }) {
  await db
    .updateTable('federation_following')
    .set({ state: 'accepted' })
    .where('actor_id', '=', accept.actorId)
    .where('follow_id', '=', accept.followId)
    .execute();
}

export async function removeFollowing(db: Kysely<Database>, userId: string, actorId: string) {
  return db.deleteFrom('federation_following').where('user_id', '=', userId).where('actor_id', '=', actorId).returning(['actor_id', 'inbox_url', 'follow_id']).executeTakeFirst();
}

export async function listFollowing(db: Kysely<Database>, userId: string) {
  return db.selectFrom('federation_following').select(['actor_id', 'handle', 'name', 'state', 'created_at']).where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
}

export async function isFollowed(db: Kysely<Database>, actorId: string) {
  const row = await db.selectFrom('federation_following').select('user_id').where('actor_id', '=', actorId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function savePost(
  db: Kysely<Database>,
  row: { object_id: string; actor_id: string; url: string | null; title: string; html: string; summary: string | null; published_at: Date | null; updated_at: Date | null },
) {
  await db
    .insertInto('federation_posts')
    .values(row)
    .onConflict((conflict) =>
      // Only its own sender may change a post.
      conflict
        .column('object_id')
        .doUpdateSet({ url: row.url, title: row.title, html: row.html, summary: row.summary, updated_at: row.updated_at ?? sql<Date>`now()` })
        .where('federation_posts.actor_id', '=', row.actor_id),
    )
    .execute();
}

export async function removePost(db: Kysely<Database>, post: { objectId: string; actorId: string }) {
  await db.deleteFrom('federation_posts').where('object_id', '=', post.objectId).where('actor_id', '=', post.actorId).execute();
}

export async function timeline(db: Kysely<Database>, userId: string, limit: number) {
  return db
    .selectFrom('federation_posts')
    .innerJoin('federation_following', 'federation_following.actor_id', 'federation_posts.actor_id')
    .selectAll('federation_posts')
    .select(['federation_following.handle', 'federation_following.name'])
    .where('federation_following.user_id', '=', userId)
    .orderBy(sql`coalesce(federation_posts.published_at, federation_posts.received_at)`, 'desc')
    .limit(limit)
    .execute();
}

export async function saveLike(db: Kysely<Database>, like: { blogId: string; actorId: string; activityId: string | null }) {
  await db
    .insertInto('federation_likes')
    .values({ blog_id: like.blogId, actor_id: like.actorId, activity_id: like.activityId })
    .onConflict((conflict) => conflict.columns(['blog_id', 'actor_id']).doUpdateSet({ activity_id: like.activityId }))
    .execute();
}

export async function removeLike(db: Kysely<Database>, like: { actorId: string; activityId: string }) {
  await db.deleteFrom('federation_likes').where('actor_id', '=', like.actorId).where('activity_id', '=', like.activityId).execute();
}
