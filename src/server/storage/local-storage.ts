import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { assertValidImageKey } from './image-key.js';
import type { ImageStorage } from './storage.js';

/** The folder the HTTP layer serves at `/uploads/`. */
export function localUploadsDir(config: Config): string {
  return path.join(config.dataDir, 'uploads');
}

/**
 * Images as files under `rootDir`. The content type is not stored: keys always end in
 * `.webp`, and the static file server derives the type from that.
 */
export function createLocalImageStorage(rootDir: string): ImageStorage {
  const root = path.resolve(rootDir);

  const fileFor = (key: string): string => {
    assertValidImageKey(key);
    const file = path.resolve(root, key);
    // The key pattern already rules this out; kept so a looser pattern can never reach outside.
    if (!file.startsWith(root + path.sep)) throw new Error(`Image key escapes the uploads folder: ${key}`);
    return file;
  };

  return {
    async put(key, data) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
      // Written beside the target and renamed, so a reader never sees half an image.
      const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await writeFile(temporary, data, { flag: 'wx', mode: PRIVATE_FILE_MODE });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw isDiskFull(error) ? insufficientStorage() : error;
      }
    },

    async get(key) {
      try {
        return await readFile(fileFor(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async delete(key) {
      try {
        await unlink(fileFor(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },

    publicUrl(key) {
      assertValidImageKey(key);
      return `/uploads/${key}`;
    },

    publicBaseUrl: '/uploads/',
  };
}

/** No room left (a full disk, or the user's quota): the client is told plainly, nothing half-written stays. */
function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

const insufficientStorage = () =>
  new AppError(507, 'INSUFFICIENT_STORAGE', 'The server has no room to store this image right now. Please try again later, or send the blog without an image.');
