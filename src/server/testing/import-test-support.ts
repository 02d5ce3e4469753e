import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { createTestApp, type TestApp } from './test-app.js';
import { createImageStorage } from '../storage/storage.js';
import type { ImportDeps } from '../portability/import/import.service.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/portability');

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;

/** A fresh site to import into, and what the import needs of it. */
export async function importSite(): Promise<{ t: TestApp; deps: ImportDeps; close(): Promise<void> }> {
  const t = await createTestApp();
  return { t, deps: { db: t.database.db, storage: createImageStorage(t.config), log: silent }, close: () => t.close() };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
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
