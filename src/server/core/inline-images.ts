import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { InlineImageUploaded } from '../../shared/inline-image-schema.js';
import { MAX_INLINE_IMAGES } from '../../shared/constants.js';
import { messages } from '../../shared/messages.js';
import type { Database } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { removeStoredImage, storeUploadedImage } from '../images/stored-image.js';
import type { RenderedMarkdown } from '../markdown/render-markdown.js';
import { isValidImageKey } from '../storage/image-key.js';
import { newImageKey, type ImageStorage } from '../storage/storage.js';
import {
  claimInlineImages,
  deleteInlineImageRows,
  insertInlineImage,
  lockUnclaimedInlineImages,
  releaseInlineImages,
  detachInlineImages,
} from './inline-images.repository.js';

export interface InlineImagesDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  log: FastifyBaseLogger;
}

/**
 * Stores an upload from the editor through the Post Image's pipeline (checked, re-encoded,
 * variants) and records it as the user's, held by no blog yet. If the record cannot be written
 * (the account was deleted meanwhile), the files go again.
 */
export async function uploadInlineImage(
  deps: InlineImagesDeps,
  userId: string,
  upload: { filename: string; data: Buffer },
): Promise<InlineImageUploaded> {
  const stored = await storeUploadedImage(deps.storage, newImageKey(upload.filename, userId), upload.data);
  try {
    await insertInlineImage(deps.db, { key: stored.key, userId, width: stored.width, height: stored.height });
  } catch (error) {
    await removeInlineImageFiles(deps, [stored.key]);
    throw error;
  }
  return { url: deps.storage.publicUrl(stored.key), width: stored.width, height: stored.height };
}

/**
 * The storage keys of the site's images a blog's text shows. Refuses (400) a text that shows
 * more than MAX_INLINE_IMAGES, before anything is written.
 */
export function inlineImageKeysOf(rendered: RenderedMarkdown, storage: Pick<ImageStorage, 'publicBaseUrl'>): string[] {
  if (rendered.imageUrls.length > MAX_INLINE_IMAGES) throw badRequest(messages.tooManyInlineImages, 'TOO_MANY_IMAGES');
  const keys = rendered.imageUrls
    .filter((url) => url.startsWith(storage.publicBaseUrl))
    .map((url) => url.slice(storage.publicBaseUrl.length))
    .filter(isValidImageKey);
  return [...new Set(keys)];
}

/**
 * Inside the transaction that saves a blog: the user's own unheld uploads its text shows become
 * the blog's, and the images the blog held that its text no longer shows go back to the unclaimed uploads, which
 * the sweep removes after the grace period unless a save claims them again first.
 *
 * The rule against "stealing": only images `userId` uploaded can be claimed. Another user's image
 * (or one another blog holds) may still be shown, as any of the site's images may, but its files
 * stay its owner's, and go when its owner's blog or account does.
 */
export async function syncBlogInlineImages(
  trx: Transaction<Database>,
  row: { userId: string; blogId: string; keys: readonly string[] },
): Promise<void> {
  await claimInlineImages(trx, row);
  await detachInlineImages(trx, row.blogId, row.keys);
}

/** Inside the transaction that deletes a blog: its images are forgotten; their keys are returned. */
export function releaseAllBlogInlineImages(trx: Transaction<Database>, blogId: string): Promise<string[]> {
  return releaseInlineImages(trx, blogId, []);
}

/**
 * Removes the files of images the database no longer records. A storage failure is logged, not
 * thrown: the data is already right, and a file left behind costs disk space only.
 */
export async function removeInlineImageFiles(deps: Pick<InlineImagesDeps, 'storage' | 'log'>, keys: readonly string[]): Promise<void> {
  await Promise.all(
    keys.map(async (key) => {
      try {
        await removeStoredImage(deps.storage, key);
      } catch (err) {
        deps.log.error({ err, key }, 'could not delete an inline image from storage');
      }
    }),
  );
}

export const SWEEP_BATCH_SIZE = 20;

/**
 * Removes uploads that no saved blog took within `graceMs` (a tab closed before saving, an image
 * deleted from the text before the first save), one batch per transaction. Each batch's rows stay
 * locked while their files are removed and go only after, so a sweep cut off half way leaves rows
 * that the next one finishes; a file that could not be removed keeps its row for the next sweep.
 * Returns how many images it removed.
 */
export async function sweepUnclaimedInlineImages(
  deps: InlineImagesDeps,
  options: { graceMs: number; now?: Date; batchSize?: number; signal?: AbortSignal; onRemoved?: (key: string) => void },
): Promise<number> {
  const before = new Date((options.now ?? new Date()).getTime() - options.graceMs);
  const batchSize = options.batchSize ?? SWEEP_BATCH_SIZE;
  let removed = 0;
  while (!options.signal?.aborted) {
    const { found, gone } = await deps.db.transaction().execute(async (trx) => {
      const keys = await lockUnclaimedInlineImages(trx, before, batchSize);
      const results = await Promise.allSettled(keys.map((key) => removeStoredImage(deps.storage, key)));
      const removedKeys = keys.filter((key, index) => {
        const result = results[index]!;
        if (result.status === 'rejected') deps.log.error({ err: result.reason, key }, 'inline image sweep: could not delete an unused image');
        return result.status === 'fulfilled';
      });
      await deleteInlineImageRows(trx, removedKeys);
      removedKeys.forEach((key) => options.onRemoved?.(key));
      return { found: keys.length, gone: removedKeys.length };
    });
    removed += gone;
    // A short batch is the last one; a batch that removed nothing would only fail the same way again.
    if (found < batchSize || gone === 0) break;
  }
  if (removed > 0) deps.log.info({ removed }, 'inline image sweep: removed images no blog uses');
  return removed;
}
