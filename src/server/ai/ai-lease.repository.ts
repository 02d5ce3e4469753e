import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * A row in `rate_limits` that every app process sees: taken only when absent or expired, in
 * one statement, so two requests can never both get it. `token` is stored in the row's
 * `count`, so only the holder releases it (and not a later holder's).
 */
export async function takeLease(db: Kysely<Database>, key: string, token: number, leaseMs: number): Promise<boolean> {
  const result = await sql<{ key: string }>`
    insert into rate_limits (key, count, reset_at)
    values (${key}, ${token}, now() + make_interval(secs => ${leaseMs / 1000}))
    on conflict (key) do update set count = excluded.count, reset_at = excluded.reset_at
      where rate_limits.reset_at <= now()
    returning key`.execute(db);
  return result.rows.length > 0;
}

export async function dropLease(db: Kysely<Database>, key: string, token: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).where('count', '=', token).execute();
}
