import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/server/db/schema.js';

/** `/proc`'s clock ticks (USER_HZ, 100 a second on Linux). */
const TICK_MS = 10;

function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User plus system CPU time of a process, in ms (`/proc/<pid>/stat`, fields 14 and 15). */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * The CPU time of a Postgres cluster's postmaster, every process it runs and every one it ran
 * that has ended (an autovacuum worker, a closed connection's backend: the postmaster's
 * `cutime` and `cstime`, fields 16 and 17), and only this cluster's (others may run beside it).
 */
export function postgresMs(postmaster: number): number {
  const own = statFields(postmaster);
  let total = (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) * TICK_MS;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === postmaster) total += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** The process id of the Postgres server behind `db` (its data folder's `postmaster.pid`: the bench runs on the same machine). */
export async function postmasterOf(db: Kysely<Database>): Promise<number> {
  const dataDirectory = await sql<{ data_directory: string }>`show data_directory`.execute(db);
  return Number(readFileSync(path.join(dataDirectory.rows[0]!.data_directory, 'postmaster.pid'), 'utf8').split('\n')[0]);
}
