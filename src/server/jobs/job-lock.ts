import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DatabaseKind } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * Runs `work` only if no other process is running the job `name`: a Postgres session advisory
 * lock, taken with `pg_try_advisory_lock` (never waiting) and given back when the work ends.
 *
 * On a Postgres server the lock lives on a pool connection held for the whole run, apart from
 * the connections the job's own queries use; if the process dies, the server drops the
 * connection and with it the lock. PGlite has one session, shared by everything in the one
 * process that may open its folder: a session lock there is re-entrant, so across processes it
 * is the data folder's own lock that counts (`db/data-dir-lock.ts`), and inside the process the
 * runner never starts a job that is already running. Holding PGlite's one connection for the
 * run would stall every query the job makes, so there the lock is taken through `db` itself.
 */
export async function withJobLock<T>(
  database: { db: Kysely<Database>; kind: DatabaseKind },
  name: string,
  work: () => Promise<T>,
): Promise<{ locked: true; result: T } | { locked: false }> {
  const key = jobLockKey(name);
  const locked = async (session: Kysely<Database>) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}::bigint) as locked`.execute(session);
    if (!rows[0]?.locked) return { locked: false as const };
    try {
      return { locked: true as const, result: await work() };
    } finally {
      await sql`select pg_advisory_unlock(${key}::bigint)`.execute(session);
    }
  };
  if (database.kind === 'pglite') return locked(database.db);
  return database.db.connection().execute((connection) => locked(connection));
}

/** A stable 64-bit lock number per job name (as text, since the driver would round a JS number). */
export function jobLockKey(name: string): string {
  const digest = createHash('sha256').update(`blogging-site job: ${name}`).digest();
  return digest.readBigInt64BE(0).toString();
}
