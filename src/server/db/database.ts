import type { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
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
  /** Hears every statement's duration (the metrics); returns how to stop hearing. */
  observeQueries(listener: QueryListener): () => void;
  /** Postgres only: the pool's connections now (the metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
  /**
   * PGlite on disk only: how this start found its cluster. `unpacked` (a first start from the
   * build's empty cluster), `initdb` (a first start without one: about 900 MB), `opened` (a later start).
   */
  start?: 'unpacked' | 'initdb' | 'opened';
}

export type QueryListener = (durationMs: number, failed: boolean) => void;

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PGlite only: start from a dump (`PGlite.dumpDataDir`) instead of an empty cluster. Tests use it. */
  loadDataDir?: Blob;
  /** PGlite only: keep the database in memory (tests). */
  inMemory?: boolean;
  /** PGlite only: an instance already open in memory, instead of a new one (the tests reuse them: `testing/pglite-pool.ts`). */
  pglite?: PGlite;
  /** PGlite only: its `shared_buffers` (from the memory budget); unset keeps Postgres' 128 MB. */
  sharedBuffersBytes?: number;
  /**
   * PGlite on disk only: unpacks an empty cluster into the folder on a first start, instead of
   * `initdb` (`empty-cluster.ts`); answers false when there is none. By default the build's.
   */
  unpackEmptyCluster?: (dataDir: string) => boolean;
}

/**
 * `DATABASE_URL` set: a Postgres server through `pg`. Unset: embedded PGlite under `DATA_DIR/pglite`.
 * Each driver is loaded only when it is the one used (`pg` about 8 MB of resident memory, PGlite
 * about 4 MB before its WebAssembly heap).
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return (await import('./postgres-database.js')).openPostgres(options.databaseUrl);
  return (await import('./pglite-database.js')).openPGlite(options);
}

/**
 * The site's database as its configuration says, with the share of memory its budget gives
 * PGlite: the server and every command line open it through here, so a 512 MB machine runs each.
 */
/** What `openSiteDatabase` reads of the configuration (`Config` has it; declared here so the database imports nothing above it). */
export interface SiteDatabaseConfig {
  databaseUrl?: string;
  dataDir: string;
  memory: { pgliteSharedBuffersBytes?: number };
}

export function openSiteDatabase(config: SiteDatabaseConfig, options: Pick<DatabaseOptions, 'loadDataDir'> = {}): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, sharedBuffersBytes: config.memory.pgliteSharedBuffersBytes, ...options });
}
