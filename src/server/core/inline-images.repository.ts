import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { lockedBatch } from '../db/locked-batch.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertInlineImage(db: Db, row: { key: string; userId: string; width: number; height: number }): Promise<void> {
  await db.insertInto('inline_images').values({ key: row.key, user_id: row.userId, width: row.width, height: row.height }).execute();
}

/**
 * Attaches to `blogId` those of `keys` that `userId` uploaded and no blog holds yet. Images of
 * other users, and images another blog already holds, are left as they are.
 */
export async function claimInlineImages(trx: Transaction<Database>, row: { userId: string; blogId: string; keys: readonly string[] }): Promise<void> {
  if (row.keys.length === 0) return;
  await trx
    .updateTable('inline_images')
    .set({ blog_id: row.blogId })
    .where('key', 'in', row.keys)
    .where('user_id', '=', row.userId)
    .where('blog_id', 'is', null)
    .execute();
}

/**
 * Hands the images `blogId` holds whose keys are not in `keep` back to the unclaimed uploads, their
 * grace period starting again now: an autosave taken while an image's Markdown was cut (to be
 * pasted elsewhere) must not delete it. The sweep removes what is still unclaimed after the grace.
 */
export async function detachInlineImages(trx: Transaction<Database>, blogId: string, keep: readonly string[]): Promise<void> {
  let query = trx.updateTable('inline_images').set({ blog_id: null, created_at: new Date() }).where('blog_id', '=', blogId);
  if (keep.length > 0) query = query.where('key', 'not in', keep);
  await query.execute();
}

/** Detaches and forgets the images `blogId` holds whose keys are not in `keep`; returns their keys. */
export async function releaseInlineImages(trx: Transaction<Database>, blogId: string, keep: readonly string[]): Promise<string[]> {
  let query = trx.deleteFrom('inline_images').where('blog_id', '=', blogId);
  if (keep.length > 0) query = query.where('key', 'not in', keep);
  const rows = await query.returning('key').execute();
  return rows.map((row) => row.key);
}

/** Every image the user uploaded, for their account's deletion (the rows go with the user). */
export async function selectUserInlineImageKeys(trx: Transaction<Database>, userId: string): Promise<string[]> {
  const rows = await trx.selectFrom('inline_images').select('key').where('user_id', '=', userId).execute();
  return rows.map((row) => row.key);
}

/**
 * Up to `limit` uploads no blog holds, older than `before`, locked for this transaction so a
 * save cannot claim one while its files are removed. Rows another process is sweeping are skipped.
 */
export async function lockUnclaimedInlineImages(trx: Transaction<Database>, before: Date, limit: number): Promise<string[]> {
  const rows = await trx
    .selectFrom('inline_images')
    .select('key')
    .where('blog_id', 'is', null)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .$call(lockedBatch(limit))
    .execute();
  return rows.map((row) => row.key);
}

export async function deleteInlineImageRows(trx: Transaction<Database>, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await trx.deleteFrom('inline_images').where('key', 'in', keys).execute();
}

/** The own sizes of recorded images, whoever uploaded them (a size is no secret). */
export async function selectInlineImageSizes(db: Db, keys: readonly string[]) {
  if (keys.length === 0) return [];
  return db.selectFrom('inline_images').select(['key', 'width', 'height']).where('key', 'in', keys).execute();
}
