import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/** Whether nearly all of `blogs` is in the visibility map (index-only scans need it). */
async function blogsMostlyAllVisible(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ pages: number; visible: number }>`
    select relpages as pages, relallvisible as visible from pg_class where relname = 'blogs'
  `.execute(db);
  return rows[0]!.pages > 0 && rows[0]!.visible >= rows[0]!.pages * 0.9;
}

/**
 * Vacuums `blogs` until the visibility map covers it, as autovacuum keeps it in production (on
 * Postgres 15 the first pass right after a bulk insert may leave it empty, and a pass while another
 * transaction of the app still sees the insert, a queue poll on a loaded machine, marks nothing);
 * true when it does, within `timeoutMs`. Plan tests of index-only scans need it.
 */
export async function vacuumBlogsUntilVisible(db: Kysely<Database>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await blogsMostlyAllVisible(db))) {
    if (Date.now() > deadline) return false;
    await sql`vacuum blogs`.execute(db);
    if (!(await blogsMostlyAllVisible(db))) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** The plan Postgres would run for `query`, as one text (`explain`, no analyse). */
export async function explain(db: Kysely<Database>, query: Expression<unknown>): Promise<string> {
  const { rows } = await sql<Record<string, string>>`explain ${query}`.execute(db);
  return rows.map((row) => Object.values(row).join(' ')).join('\n');
}

/** How often each named PL/pgSQL function has run so far in the transaction `trx` (counted once it has set `track_functions = 'pl'`). */
export async function functionCallsInTransaction(trx: Kysely<Database>, names: string[]): Promise<number[]> {
  const calls: number[] = [];
  for (const name of names) {
    const { rows } = await sql<{ calls: string | null }>`select pg_stat_get_xact_function_calls(${name}::regproc)::text as calls`.execute(trx);
    calls.push(Number(rows[0]!.calls ?? 0));
  }
  return calls;
}
