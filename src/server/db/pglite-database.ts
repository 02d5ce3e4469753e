import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { lockDataDir } from './data-dir-lock.js';
import type { DatabaseHandle, DatabaseOptions } from './database.js';
import { unpackEmptyCluster } from './empty-cluster.js';
import { makePrivateDir } from './private-files.js';
import { queryObservers } from './query-observers.js';
import type { Database } from './schema.js';

/** Embedded PGlite under `DATA_DIR/pglite` (or in memory, for tests). */
export async function openPGlite(options: DatabaseOptions): Promise<DatabaseHandle> {
  let dataDir: string | undefined;
  let unlock = () => {};
  const loadDataDir = options.loadDataDir;
  let start: DatabaseHandle['start'];
  if (!options.inMemory) {
    // DATA_DIR itself is tightened too: a folder only its owner can enter hides all it holds.
    makePrivateDir(options.dataDir);
    // One process at a time: a second one (a CLI while the server runs) is refused clearly.
    unlock = lockDataDir(options.dataDir);
    dataDir = path.join(options.dataDir, 'pglite');
    makePrivateDir(dataDir);
  }
  let pglite: PGlite;
  try {
    if (dataDir !== undefined) {
      if (existsSync(path.join(dataDir, 'PG_VERSION'))) start = 'opened';
      else if (loadDataDir) start = 'unpacked';
      else start = (options.unpackEmptyCluster ?? unpackEmptyCluster)(dataDir) ? 'unpacked' : 'initdb';
    }
    pglite =
      options.pglite ??
      (await PGlite.create({
        dataDir,
        ...(loadDataDir ? { loadDataDir } : {}),
        ...(options.sharedBuffersBytes ? { startParams: smallStartParams(options.sharedBuffersBytes) } : {}),
      }));
  } catch (error) {
    unlock();
    throw error;
  }
  const observers = queryObservers();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), log: observers.log });
  // Destroying the Kysely driver closes PGlite, which flushes its files.
  return {
    db,
    kind: 'pglite',
    dump: () => pglite.dumpDataDir('gzip'),
    observeQueries: observers.observeQueries,
    listen: async (channel, onNotice) => {
      await pglite.listen(channel, onNotice);
    },
    close: async () => {
      try {
        await db.destroy();
      } finally {
        unlock();
      }
    },
    start,
  };
}

/**
 * PGlite's own start parameters, and beside them what makes its WebAssembly heap (which never
 * shrinks) smaller: buffers sized from the memory budget instead of Postgres' 128 MB, room for
 * the one backend PGlite runs rather than 100, and index builds in less memory (measured in
 * `docs/memory.md`).
 */
export function smallStartParams(sharedBuffersBytes: number): string[] {
  const sharedBuffersKb = Math.max(1024, Math.floor(sharedBuffersBytes / 1024));
  return [
    ...PGlite.defaultStartParams,
    '-c', `shared_buffers=${sharedBuffersKb}kB`,
    '-c', 'max_connections=5',
    '-c', 'wal_buffers=256kB',
    '-c', 'maintenance_work_mem=16MB',
    '-c', 'max_prepared_transactions=0',
  ];
}
