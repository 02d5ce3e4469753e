import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/database.js';
import { emptyClusterFile, writeEmptyCluster } from '../db/empty-cluster.js';
import { migrateToLatest } from '../db/migrate.js';
import './provided-context.js';

/**
 * The `processes` project's global setup (and the `runtime` project's, beside global-setup.ts).
 * Its files start servers and tools of their own and reach no test app, so they need neither the
 * migrated PGlite template nor Vite's pre-bundled dependencies (global-setup.ts: about 13 s of
 * CPU). What they do need is the empty cluster beside the source: the databases they open in the
 * test process (`openDatabase({ dataDir })`), and the servers started from source, unpack it
 * instead of running `initdb` each time.
 *
 * And one migrated DATA_DIR per run (`migratedDataDir` in server-process.ts copies it): a site as
 * a command line or a test's own `openDatabase` + `migrateToLatest` leaves it, so a server or a
 * tool started on a copy skips the cluster's unpacking and the migrations (about 4 s of CPU a
 * start, docs/testing.md). Tests about a first start on an empty folder keep their empty one.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(emptyClusterFile())) await writeEmptyCluster();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'blog-migrated-site-'));
  const database = await openDatabase({ dataDir });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  project.provide('migratedDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
