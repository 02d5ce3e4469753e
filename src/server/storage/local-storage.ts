import { randomBytes } from 'node:crypto';
import { lstat, mkdir, opendir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { assertValidImageKey } from './image-key.js';
import { assertListedKey, assertListPrefix, isListedKey } from './listed-key.js';
import type { ImageStorage, StoredObject } from './storage.js';

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

    list(prefix, options = {}) {
      assertListPrefix(prefix);
      return listFiles(root, prefix, options.pageSize ?? 1000);
    },
    async removeListed(key) {
      assertListedKey(key);
      const file = path.resolve(root, key);
      if (!file.startsWith(root + path.sep)) throw new Error(`Stored key escapes the uploads folder: ${key}`);
      // Every folder on the way must be a real folder of the store: through a symbolic link,
      // unlinking would remove a file elsewhere.
      const segments = key.split('/');
      for (let depth = 1; depth < segments.length; depth++) {
        const folder = await lstatOrNull(path.join(root, ...segments.slice(0, depth)));
        if (!folder) return;
        if (!folder.isDirectory()) throw new Error(`Refusing to remove through a non-folder: ${key}`);
      }
      const stats = await lstatOrNull(file);
      if (!stats) return;
      if (!stats.isFile()) throw new Error(`Refusing to remove what is not a plain file: ${key}`);
      await unlink(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
    publicUrl(key) {
      assertValidImageKey(key);
      return `/uploads/${key}`;
    },

    publicBaseUrl: '/uploads/',
  };
}

/**
 * The plain files under `root/prefix`, depth first, a page at a time: folders are read as a
 * stream (never all names at once), symbolic links are neither followed nor listed.
 */
async function* listFiles(root: string, prefix: string, pageSize: number): AsyncGenerator<StoredObject[]> {
  const start = prefix === '' ? root : path.join(root, prefix);
  const top = await lstatOrNull(start);
  if (!top) return;
  if (!top.isDirectory()) throw new Error(`Refusing to list what is not a plain folder: ${prefix}`);
  let names: string[] = [];
  // A page's files are stat'ed together: one at a time, the disk's latency would add up.
  const statPage = async (keys: string[]) => {
    const stats = await Promise.all(keys.map((key) => lstatOrNull(path.join(root, key))));
    return keys.flatMap((key, i) => (stats[i]?.isFile() ? [{ key, size: stats[i].size, modifiedAt: stats[i].mtime }] : []));
  };
  const folders = [prefix];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let dir;
    try {
      dir = await opendir(path.join(root, folder), { bufferSize: 256 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
      throw error;
    }
    for await (const entry of dir) {
      const key = `${folder}${entry.name}`;
      if (!isListedKey(key)) continue;
      if (entry.isDirectory()) folders.push(`${key}/`);
      else if (entry.isFile()) names.push(key);
      if (names.length >= pageSize) {
        const page = await statPage(names);
        names = [];
        if (page.length > 0) yield page;
      }
    }
  }
  const page = await statPage(names);
  if (page.length > 0) yield page;
}

async function lstatOrNull(file: string) {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** No room left (a full disk, or the user's quota): the client is told plainly, nothing half-written stays. */
function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

const insufficientStorage = () =>
  new AppError(507, 'INSUFFICIENT_STORAGE', 'The server has no room to store this image right now. Please try again later, or send the blog without an image.');
