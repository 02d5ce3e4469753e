import { ogImageKey, variantImageKey } from '../storage/image-key.js';
import type { ImageStorage } from '../storage/storage.js';
import { withImageSlot } from '../memory/image-memory.js';
import { VARIANT_WIDTHS } from './image-variants.js';
import { imageWork } from './image-worker-client.js';

/** What a blog row keeps about its image: the key names every file, the rest sizes the page. */
export interface StoredImage {
  key: string;
  width: number;
  height: number;
  /** Widths of the stored smaller copies, ascending; the image itself is the largest entry. */
  variantWidths: number[];
}

const WEBP = 'image/webp';

/**
 * Checks and re-encodes an upload, then stores it under `key` with its variants. If any
 * write fails, whatever was written is removed again before the error goes on.
 */
export function storeUploadedImage(storage: ImageStorage, key: string, upload: Buffer): Promise<StoredImage> {
  return withImageSlot(async () => {
    const image = await imageWork().processUploadedImage(upload);
    try {
      await storage.put(key, image.data, WEBP);
      return { key, ...(await storeVariants(storage, key, image.data)) };
    } catch (error) {
      await removeStoredImage(storage, key).catch(() => undefined);
      throw error;
    }
  });
}

/** Makes and stores the variants of the image stored at `key` (whose bytes are `stored`). */
export async function storeVariants(
  storage: ImageStorage,
  key: string,
  stored: Buffer,
): Promise<Omit<StoredImage, 'key'>> {
  const variants = await imageWork().renderImageVariants(stored);
  await Promise.all([
    ...variants.widths.map((variant) => storage.put(variantImageKey(key, variant.width), variant.data, WEBP)),
    storage.put(ogImageKey(key), variants.og, WEBP),
  ]);
  return { width: variants.width, height: variants.height, variantWidths: variants.widths.map((variant) => variant.width) };
}

/**
 * Every key an image may have used. Every possible variant is named, not only those the row
 * lists, so that a variant written by an interrupted backfill is removed too.
 */
export function allImageKeys(key: string): string[] {
  return [key, ...VARIANT_WIDTHS.map((width) => variantImageKey(key, width)), ogImageKey(key)];
}

/** Removes the image and all its variants; missing files are not an error. */
export async function removeStoredImage(storage: ImageStorage, key: string): Promise<void> {
  const results = await Promise.allSettled(allImageKeys(key).map((each) => storage.delete(each)));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
