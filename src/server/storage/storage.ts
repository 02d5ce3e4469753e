import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { createLocalImageStorage, localUploadsDir } from './local-storage.js';
import { createS3ImageStorage } from './s3-storage.js';
import { slugify } from '../../shared/slug.js';

/** One object as `list` finds it. */
export interface StoredObject {
  /** Its key inside the store (`blogs/…`); a leftover temporary file's too, so not always an image key. */
  key: string;
  size: number;
  modifiedAt: Date;
}

/** What every image key starts with: the part of the store (or of a shared bucket) that is ours. */
export const IMAGE_KEY_PREFIX = 'blogs/';

/** Where processed blog images live. Keys come from `newImageKey`. */
export interface ImageStorage {
  /** Stores the object, replacing any object with the same key. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is no object with that key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the object; a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Everything stored under `prefix` (a folder: ends in `/`), page by page (at most `pageSize`
   * objects each, in no promised order). Symbolic links and other non-files are never listed.
   */
  list(prefix: string, options?: { pageSize?: number }): AsyncIterable<StoredObject[]>;
  /**
   * Removes an object `list` returned, whatever its name (a leftover `.tmp` file too), but never
   * anything outside the store; a key that does not exist is not an error.
   */
  removeListed(key: string): Promise<void>;
  /** The URL the browser loads the object from. */
  publicUrl(key: string): string;
  /** What every `publicUrl` starts with, ending in `/`: blogs show images from here only. */
  readonly publicBaseUrl: string;
}

export function createImageStorage(config: Config): ImageStorage {
  return config.s3 ? createS3ImageStorage(config.s3) : createLocalImageStorage(localUploadsDir(config));
}

const MAX_SLUG_LENGTH = 40;

/**
 * The spec's `blogs/{name + user id + timestamp}`, made safe: the original name is reduced
 * to a slug (it is the user's text and may hold `../` or anything else), and a random
 * suffix keeps two uploads in the same millisecond apart.
 */
export function newImageKey(originalName: string, userId: string): string {
  const owner = userId.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || 'user';
  const random = randomBytes(4).toString('hex');
  return `blogs/${slugOfBaseName(originalName)}-${owner}-${Date.now()}-${random}.webp`;
}

function slugOfBaseName(originalName: string): string {
  const baseName = originalName.split(/[/\\]/).pop() ?? '';
  return slugify(baseName.replace(/\.[^.]*$/, ''), MAX_SLUG_LENGTH, 'image');
}
