import path from 'node:path';
import yazl from 'yazl';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';
import { tempDir } from './temp-dirs.js';
import { selectBlogComments } from '../comments/comments.repository.js';
import { createImageStorage } from '../storage/storage.js';
import type { ImportDeps } from '../portability/import/import.service.js';
import type { Database } from '../db/schema.js';

export { FIXTURES, tempDir } from './temp-dirs.js';

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;

/** A fresh site to import into, and what the import needs of it. */
export async function importSite(): Promise<{ t: TestApp; deps: ImportDeps; close(): Promise<void> }> {
  // A site to import into has no account yet: the import's authors are its first.
  const t = await createTestApp({}, { withoutOwner: true });
  return { t, deps: { db: t.database.db, storage: createImageStorage(t.config), log: silent }, close: () => t.close() };
}


/** The before and after hooks of the enclosing describe block: around all its tests, or around each with `each`. */
function hooks(options: { each?: boolean }) {
  return options.each ? { before: beforeEach, after: afterEach } : { before: beforeAll, after: afterAll };
}

/** `importSite` for the enclosing describe block: the handle is filled in before its tests (or each) and closed after. */
export function useImportSite(options: { each?: boolean } = {}): Awaited<ReturnType<typeof importSite>> {
  const { before, after } = hooks(options);
  const handle = {} as Awaited<ReturnType<typeof importSite>>;
  before(async () => {
    Object.assign(handle, await importSite());
  });
  after(() => handle.close());
  return handle;
}

/** `tempDir(prefix)` for the enclosing describe block: made before its tests (or each) and removed after. */
export function useTempDir(prefix: string, options: { each?: boolean } = {}): ReturnType<typeof tempDir> {
  const { before, after } = hooks(options);
  const handle = {} as ReturnType<typeof tempDir>;
  before(() => {
    Object.assign(handle, tempDir(prefix));
  });
  after(() => handle.remove());
  return handle;
}

/** Writes a zip of `entries` (name → content), names taken as given (yazl refuses `..`, so a name may be patched after). */
export async function writeZip(file: string, entries: Record<string, Buffer | string>, options: { compress?: boolean } = {}): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress: options.compress ?? true });
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject));
}

/** Every file of a folder, as a zip's entries. */
export async function folderEntries(root: string): Promise<Record<string, Buffer>> {
  const entries: Record<string, Buffer> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    entries[path.relative(root, full).split(path.sep).join('/')] = await readFile(full);
  }
  return entries;
}

/** A blog's comments as a reader sees them, oldest first, each with its author's address (`author`). */
export function commentsOfBlog(db: Kysely<Database>, blogId: string) {
  return selectBlogComments(db, blogId, null);
}
