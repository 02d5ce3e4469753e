import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { selectImagesWithoutVariants, saveImageVariants } from './image-variants.repository.js';
import { withImageSlot } from '../memory/image-memory.js';
import { removeStoredImage, storeVariants } from './stored-image.js';
import type { ContentChanges } from '../cache/content-changes.js';
import { LISTS_TAG, blogTag } from '../../shared/cache-tags.js';

/** The part of a pino (Fastify) logger the backfill writes to. */
export interface BackfillLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface BackfillDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  log: BackfillLog;
  /** A blog's answers changed (its image sizes): cached copies go (the command line has no cache). */
  contentChanges?: ContentChanges;
}

export interface BackfillOptions {
  batchSize?: number;
  /** Checked between images: a shutting-down server stops after the image in hand. */
  signal?: AbortSignal;
}

export interface BackfillCounts {
  /** Images that got their variants and sizes. */
  done: number;
  /** Rows whose image file is not in storage; left as they are, tried again next time. */
  missing: number;
  /** Images that could not be read or stored; logged, tried again next time. */
  failed: number;
}

/**
 * Gives every image stored before variants existed its smaller copies, Open Graph crop and
 * sizes. Idempotent: only rows without variants are read, so a second run finds nothing.
 * Resumable: each image is committed on its own as soon as its files are stored, so a run
 * that stops anywhere loses at most the image in hand. Images are made one at a time, in
 * id order, so a large site's backfill never takes more than one core from the requests.
 */
export async function backfillImageVariants(deps: BackfillDeps, options: BackfillOptions = {}): Promise<BackfillCounts> {
  const batchSize = options.batchSize ?? 20;
  const counts: BackfillCounts = { done: 0, missing: 0, failed: 0 };
  let afterId: string | null = null;
  for (;;) {
    const batch = await selectImagesWithoutVariants(deps.db, afterId, batchSize);
    if (batch.length === 0 || options.signal?.aborted) break;
    if (afterId === null) deps.log.info({}, 'image variants: backfilling images stored before variants existed');
    for (const blog of batch) {
      if (options.signal?.aborted) break;
      counts[await backfillOne(deps, blog.id, blog.imageKey)]++;
    }
    afterId = batch[batch.length - 1]!.id;
    deps.log.info({ ...counts }, 'image variants: batch committed');
  }
  if (counts.done + counts.missing + counts.failed > 0 || options.signal?.aborted) {
    deps.log.info({ ...counts, stopped: Boolean(options.signal?.aborted) }, 'image variants: backfill finished');
  }
  return counts;
}

async function backfillOne(deps: BackfillDeps, id: string, key: string): Promise<keyof BackfillCounts> {
  try {
    const stored = await deps.storage.get(key);
    if (!stored) {
      deps.log.warn({ blogId: id, key }, 'image variants: the image file is missing from storage');
      return 'missing';
    }
    const image = { key, ...(await withImageSlot(() => storeVariants(deps.storage, key, stored))) };
    if (!(await saveImageVariants(deps.db, id, image))) {
      // Replaced or deleted while we worked; its files are no longer anyone's.
      await removeStoredImage(deps.storage, key);
    }
    await deps.contentChanges?.changed([LISTS_TAG, blogTag(id)]);
    return 'done';
  } catch (err) {
    deps.log.error({ err, blogId: id, key }, 'image variants: could not make the variants of an image');
    return 'failed';
  }
}
