import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Files for tests that need no database: the portability fixtures and throwaway folders (a test
 * importing only these does not reach the test database, so it runs on PGlite alone; see
 * scripts/test-plan.mjs).
 */
export const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/portability');

/** A new folder under the system's temporary one, named after `prefix`, and how to remove it. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
