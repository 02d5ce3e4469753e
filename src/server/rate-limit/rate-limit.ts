import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { tooManyRequests } from '../errors.js';

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

/**
 * A fixed-window counter kept in the database, so every app process shares it.
 * One statement per call: the upsert both counts and resets an expired window.
 */
export async function consumeRateLimit(
  db: Kysely<Database>,
  key: string,
  rule: RateLimitRule,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const result = await sql<{ count: number; reset_at: Date }>`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at`.execute(db);
  const row = result.rows[0]!;
  const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - Date.now()) / 1000));
  return { allowed: row.count <= rule.max, retryAfterSeconds };
}

/** Throws 429 with a clear message when the key is over its limit. */
export async function enforceRateLimit(
  db: Kysely<Database>,
  key: string,
  rule: RateLimitRule,
  message?: string,
): Promise<void> {
  const { allowed, retryAfterSeconds } = await consumeRateLimit(db, key, rule);
  if (!allowed) {
    const error = tooManyRequests(message ?? `Too many requests. Please try again in ${retryAfterSeconds} seconds.`);
    Object.assign(error, { retryAfterSeconds });
    throw error;
  }
}

/** IPv6 clients are grouped by their /64, since one host usually owns the whole prefix. */
export function clientKey(ip: string): string {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (!address.includes(':')) return address;
  const groups = expandIpv6(address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = address.includes('::') ? 8 - headGroups.length - tailGroups.length : 0;
  return [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}
