import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { makePrivateDir } from './private-files.js';
import type { Database } from './schema.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Postgres only: the server's URL, for a connection of one's own (`LISTEN`). */
  url?: string;
  /** PGlite only: the whole cluster as a tarball, to clone it (tests migrate once, then copy). */
  dump?: () => Promise<Blob>;
  /**
   * PGlite only: hears a channel's `NOTIFY`s in this process (PGlite delivers them when the
   * statement, or its transaction, commits). On Postgres each process listens on a connection of
   * its own (`cache/cache-invalidation.ts`).
   */
  listen?: (channel: string, onNotice: (payload: string) => void) => Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PGlite only: start from a dump (`PGlite.dumpDataDir`) instead of an empty cluster. Tests use it. */
  loadDataDir?: Blob;
  /** PGlite only: keep the database in memory (tests). */
  inMemory?: boolean;
}

/** `DATABASE_URL` set: a Postgres server through `pg`. Unset: embedded PGlite under `DATA_DIR/pglite`. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // A server that accepts but does not answer (overloaded, half-restarted) fails a request in 5 s, not never.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: 5_000 });
    // An idle connection that the server drops (a restart, a failover, an administrator) must not
    // crash the process: the pool discards it and opens a new one on the next query.
    pool.on('error', (err) => console.error(`database: idle connection lost (${err.message})`));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', url: options.databaseUrl, close: () => db.destroy() };
  }

  let dataDir: string | undefined;
  if (!options.inMemory) {
    // DATA_DIR itself is tightened too: a folder only its owner can enter hides all it holds.
    makePrivateDir(options.dataDir);
    dataDir = path.join(options.dataDir, 'pglite');
    makePrivateDir(dataDir);
  }
  const pglite = await PGlite.create({ dataDir, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  // Destroying the Kysely driver closes PGlite, which flushes its files.
  return {
    db,
    kind: 'pglite',
    dump: () => pglite.dumpDataDir('gzip'),
    listen: async (channel, onNotice) => {
      await pglite.listen(channel, onNotice);
    },
    close: () => db.destroy(),
  };
}
