import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Counts one request against a fixed window and returns the window's count and end. One
 * statement: the upsert both counts and resets an expired window, so processes never race.
 */
export async function countRequest(
  db: Kysely<Database>,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; resetAt: Date }> {
  const result = await sql<{ count: number; reset_at: Date }>`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at`.execute(db);
  const row = result.rows[0]!;
  return { count: row.count, resetAt: new Date(row.reset_at) };
}

/** Windows that ended a while ago count nothing any more; the table stays the size of the live ones. */
export async function deleteExpiredCounters(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<', sql<Date>`now() - interval '1 minute'`).execute();
}

/**
 * Counts many requests of one window length at once (see `RateLimiter.enforceBatched`): one
 * statement for every key, each window reset as in `countRequest`.
 */
export async function countRequests(
  db: Kysely<Database>,
  counts: ReadonlyMap<string, number>,
  windowSeconds: number,
): Promise<Array<{ key: string; count: number; resetAt: Date }>> {
  const keys = [...counts.keys()];
  const added = keys.map((key) => counts.get(key)!);
  const result = await sql<{ key: string; count: number; reset_at: Date }>`
    insert into rate_limits (key, count, reset_at)
    select key, added, now() + make_interval(secs => ${windowSeconds})
    from unnest(${keys}::text[], ${added}::int[]) as batch(key, added)
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then excluded.count else rate_limits.count + excluded.count end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning key, count, reset_at`.execute(db);
  return result.rows.map((row) => ({ key: row.key, count: row.count, resetAt: new Date(row.reset_at) }));
}
