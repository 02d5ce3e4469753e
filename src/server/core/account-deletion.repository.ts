import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { selectUserInlineImageKeys } from './inline-images.repository.js';
import { blogStatesBefore, recordBlogChanges } from './blog-events.js';

/**
 * Deletes the user; foreign keys cascade to their sessions, logins, blogs, votes, comments, subscriptions
 * (with the replies to those), and the votes and comments triggers correct the counts of other
 * people's blogs. Returns the image keys of the deleted blogs and of the images the user uploaded
 * from the editor, for the caller to remove from storage once the transaction has committed.
 * Each blog's deletion is recorded as its event (`core/blog-events.ts`).
 * The user row is locked first, so a blog being inserted at the same moment either lands
 * before (and its image is listed) or fails on the missing user.
 */
export async function deleteUserAndContent(trx: Transaction<Database>, userId: string): Promise<{ deleted: boolean; imageKeys: string[] }> {
  const user = await trx.selectFrom('user').select(['id', 'email', 'emailVerified']).where('id', '=', userId).forUpdate().executeTakeFirst();
  if (!user) return { deleted: false, imageKeys: [] };
  // The subscriptions it made signed in go by cascade; those of its verified address go too.
  if (user.emailVerified) await trx.deleteFrom('subscriptions').where('email', '=', user.email.toLowerCase()).execute();
  const images = await trx
    .selectFrom('blogs')
    .select('image_key')
    .where('user_id', '=', userId)
    .where('image_key', 'is not', null)
    .execute();
  // Images uploaded from the editor: their rows go with the user (cascade), their files after.
  const inlineImageKeys = await selectUserInlineImageKeys(trx, userId);
  // Each blog's deletion is an event, recorded while the author's handle can still be read.
  await recordBlogChanges(trx, { before: await blogStatesBefore(trx, { authorId: userId }), origin: 'account-deletion', deleted: true });
  await trx.deleteFrom('user').where('id', '=', userId).execute();
  return { deleted: true, imageKeys: [...images.map((row) => row.image_key!).filter(Boolean), ...inlineImageKeys] };
}
