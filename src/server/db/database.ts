import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type LogEvent, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { unpackEmptyCluster } from './empty-cluster.js';
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

/** Kysely's log hook, fanned out to whoever listens (nobody, unless metrics are on). */
function queryObservers() {
  const listeners = new Set<QueryListener>();
  return {
    log(event: LogEvent) {
      for (const listener of listeners) listener(event.queryDurationMillis, event.level === 'error');
    },
    observeQueries(listener: QueryListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PGlite only: start from a dump (`PGlite.dumpDataDir`) instead of an empty cluster. Tests use it. */
  loadDataDir?: Blob;
  /** PGlite only: keep the database in memory (tests). */
  inMemory?: boolean;
  /** PGlite only: its `shared_buffers` (from the memory budget); unset keeps Postgres' 128 MB. */
  sharedBuffersBytes?: number;
  /**
   * PGlite on disk only: unpacks an empty cluster into the folder on a first start, instead of
   * `initdb` (`empty-cluster.ts`); answers false when there is none. By default the build's.
   */
  unpackEmptyCluster?: (dataDir: string) => boolean;
}

/** `DATABASE_URL` set: a Postgres server through `pg`. Unset: embedded PGlite under `DATA_DIR/pglite`. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // A server that accepts but does not answer (overloaded, half-restarted) fails a request in 5 s, not never.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: 5_000 });
    // An idle connection that the server drops (a restart, a failover, an administrator) must not
    // crash the process: the pool discards it and opens a new one on the next query.
    pool.on('error', (err) => console.error(`database: idle connection lost (${err.message})`));
    const observers = queryObservers();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }), log: observers.log });
    return {
      db,
      kind: 'postgres',
      url: options.databaseUrl,
      observeQueries: observers.observeQueries,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }

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
    pglite = await PGlite.create({
      dataDir,
      ...(loadDataDir ? { loadDataDir } : {}),
      ...(options.sharedBuffersBytes ? { startParams: smallStartParams(options.sharedBuffersBytes) } : {}),
    });
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

/** Starts the text of a statement to be sent as a named prepared statement (`executePrepared`). */
export const PREPARED_MARK = '/* prepared */ ';

/**
 * Statements marked with `PREPARED_MARK` go to Postgres as named prepared statements, so each
 * connection parses and plans them once instead of on every run (a vote's statement: 0.39 to
 * 0.52 ms a round trip unnamed, 0.23 ms prepared, measured on this machine). Only marked ones:
 * after five runs Postgres may keep a generic plan, which suits statements whose plan does not
 * depend on their values (a key lookup), not the plan-sensitive list and search queries; and the
 * marked texts are fixed, so each connection holds a few prepared statements, not one per text.
 */
function preparingPool(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `p_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
    return name;
  };
  return {
    async connect() {
      const client = await pool.connect();
      const query = (text: string | pg.Submittable, values: readonly unknown[] = []) => {
        // A cursor (streamed results) goes through as it is.
        if (typeof text !== 'string') return client.query(text);
        return text.startsWith(PREPARED_MARK) ? client.query({ name: nameOf(text), text, values: [...values] }) : client.query(text, [...values]);
      };
      // One function for both of Kysely's overloads (a statement, or a cursor), as pg's own `query` is.
      const prepared: PostgresPoolClient = { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
      return prepared;
    },
    end: () => pool.end(),
    // Kysely opens a control connection with these to cancel a statement that is taking too long.
    Client: pg.Client,
    options: pool.options,
  };
}
