import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { tooManyRequests } from '../errors.js';
import { countRequest, countRequests, deleteExpiredCounters } from './rate-limit.repository.js';

export interface RateLimitRule {
  /** Requests allowed per window, before `RATE_LIMIT_SCALE` multiplies it. */
  max: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key`; throws 429 with `Retry-After` once the key is over its limit. */
  enforce(key: string, rule: RateLimitRule, message?: string): Promise<void>;
  /**
   * Counts one request for `key` in this process only, without the database: for answers from the
   * response cache, whose whole point is not to touch the database. Refuses (429) a key this
   * process counted over its limit, or one the database already found over it (the gate).
   */
  enforceInMemory(key: string, rule: RateLimitRule, message?: string): void;
  /**
   * Counts one request for `key` like `enforce`, but without a database write on the request's
   * path: this process counts it in memory (refusing at once past the limit) and adds its counts
   * to the shared counters every `BATCH_EVERY_MS`, in one statement for all keys; a key the
   * shared count shows over its limit is then refused here until its window ends. So the limit
   * holds across processes, a fraction of a second late. For the hottest paths (public reads).
   */
  enforceBatched(key: string, rule: RateLimitRule, message?: string): void;
  /** The rule's limit after `RATE_LIMIT_SCALE`. */
  maxOf(rule: RateLimitRule): number;
}

/** A per-client limit on public reads: its counter's prefix, its rule and what a refusal says. */
export interface ReadLimit {
  prefix: string;
  rule: RateLimitRule;
  message: string;
}

/**
 * Per client address on the public read APIs (lists, a blog, comments): generous for a reader,
 * a stop for a scraper. Declared by each route with its caching (`cachedAs`), counted by
 * `publicReader` (cache/public-read.ts), and kept by the response cache's hits too.
 */
export const PUBLIC_READ_LIMIT: ReadLimit = {
  prefix: 'read',
  rule: { max: 600, windowSeconds: 60 },
  message: 'You are loading pages very fast. Please wait a moment and try again.',
};

/**
 * Per client address on search: far above anyone pressing Search by hand, and a stop for a flood
 * (with PGlite, searches run on the server's event loop and would stall every other request).
 */
export const SEARCH_LIMIT: ReadLimit = {
  prefix: 'search',
  rule: { max: 60, windowSeconds: 60 },
  message: 'You are searching very fast. Please wait a moment and try again.',
};

const BATCH_EVERY_MS = 250;

/** One fixed window of in-memory counts, shared by every key of a window length. */
interface LocalWindow {
  endsAt: number;
  counts: Map<string, number>;
}

/** An address that keeps flooding after being refused must not grow the gate without bound. */
const MAX_GATED_KEYS = 100_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The key as the database keeps it: its first part (what is counted: `search`, `auth-address`…)
 * as it is, the rest (a reader's address, an e-mail address, an account id) as a keyed hash under
 * the site's secret. The counters work the same, and the table names nobody.
 */
export function storedRateLimitKey(key: string, secret: string): string {
  const colon = key.indexOf(':');
  const kind = colon === -1 ? '' : key.slice(0, colon + 1);
  return `${kind}${createHmac('sha256', secret).update(`rate-limit:${key}`).digest('base64url').slice(0, 32)}`;
}

export interface RateLimiterDeps {
  db: Kysely<Database>;
  scale: number;
  /** The site's secret (`AUTH_SECRET`): the key of the keys' hashes. */
  secret: string;
}

/**
 * Fixed-window counters kept in the database, so every app process shares them, behind a
 * small in-memory gate: a key already over its limit is refused by this process without a
 * database write until its window ends, so a flood of refused requests stays cheap. Keys are
 * kept as given in this process's memory, and hashed on their way to the database.
 */
export function createRateLimiter({ db, scale, secret }: RateLimiterDeps): RateLimiter {
  const blockedUntil = new Map<string, number>();
  const localWindows = new Map<number, LocalWindow>();
  let lastSweep = Date.now();
  const maxOf = (rule: RateLimitRule) => Math.max(1, Math.round(rule.max * scale));

  const refuse = (untilMs: number, message: string | undefined): never => {
    const retryAfterSeconds = Math.max(1, Math.ceil((untilMs - Date.now()) / 1000));
    throw tooManyRequests(message ?? `Too many requests. Please try again in ${retryAfterSeconds} seconds.`, retryAfterSeconds);
  };

  const gate = (key: string, untilMs: number) => {
    if (blockedUntil.size >= MAX_GATED_KEYS) {
      const now = Date.now();
      for (const [gated, until] of blockedUntil) if (until <= now) blockedUntil.delete(gated);
      // Still full of live entries: forget the oldest; the database still counts them.
      for (const gated of blockedUntil.keys()) {
        if (blockedUntil.size < MAX_GATED_KEYS) break;
        blockedUntil.delete(gated);
      }
    }
    blockedUntil.set(key, untilMs);
  };

  const sweep = () => {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    deleteExpiredCounters(db).catch(() => undefined);
  };

  // A key gated until later is refused at once; a gate that has run out goes.
  const passGate = (key: string, message: string | undefined) => {
    const gatedUntil = blockedUntil.get(key);
    if (gatedUntil === undefined) return;
    if (gatedUntil > Date.now()) refuse(gatedUntil, message);
    blockedUntil.delete(key);
  };

  const enforceInMemory = (key: string, rule: RateLimitRule, message?: string) => {
    passGate(key, message);
    const now = Date.now();
    let window = localWindows.get(rule.windowSeconds);
    if (!window || window.endsAt <= now) {
      window = { endsAt: now + rule.windowSeconds * 1000, counts: new Map() };
      localWindows.set(rule.windowSeconds, window);
    }
    const counted = window.counts.get(key);
    // A crowd of new addresses cannot grow the table without bound: once full, a new key goes
    // uncounted here until the window ends (its misses are still counted in the database).
    if (counted === undefined && window.counts.size >= MAX_GATED_KEYS) return;
    const count = (counted ?? 0) + 1;
    window.counts.set(key, count);
    if (count > maxOf(rule)) {
      gate(key, window.endsAt);
      refuse(window.endsAt, message);
    }
  };

  // Counts not yet added to the database, by window length, then key.
  const pending = new Map<number, { rule: RateLimitRule; counts: Map<string, number> }>();
  let flushTimer: NodeJS.Timeout | undefined;
  const flush = async () => {
    flushTimer = undefined;
    const batches = [...pending.values()];
    pending.clear();
    for (const { rule, counts } of batches) {
      try {
        const keyOf = new Map([...counts.keys()].map((key) => [storedRateLimitKey(key, secret), key]));
        const stored = new Map([...keyOf].map(([hashed, key]) => [hashed, counts.get(key)!]));
        for (const { key, count, resetAt } of await countRequests(db, stored, rule.windowSeconds)) {
          if (count > maxOf(rule)) gate(keyOf.get(key)!, resetAt.getTime());
        }
      } catch {
        // The database is unreachable: the in-memory counts still limit this process.
      }
    }
  };

  return {
    maxOf,
    enforceInMemory,
    enforceBatched(key, rule, message) {
      enforceInMemory(key, rule, message);
      let batch = pending.get(rule.windowSeconds);
      if (!batch) pending.set(rule.windowSeconds, (batch = { rule, counts: new Map() }));
      batch.counts.set(key, (batch.counts.get(key) ?? 0) + 1);
      if (!flushTimer) {
        flushTimer = setTimeout(() => void flush(), BATCH_EVERY_MS);
        flushTimer.unref();
      }
    },
    async enforce(key, rule, message) {
      passGate(key, message);
      sweep();
      const { count, resetAt } = await countRequest(db, storedRateLimitKey(key, secret), rule.windowSeconds);
      if (count > maxOf(rule)) {
        gate(key, resetAt.getTime());
        refuse(resetAt.getTime(), message);
      }
    },
  };
}

/**
 * Better Auth's own per-address limits (`rateLimit.customStorage`), kept in the same table the
 * same way: its keys are `address|path`, so they are hashed like ours (prefix `auth-ip`).
 */
export function authRateLimitStorage({ db, secret }: Pick<RateLimiterDeps, 'db' | 'secret'>) {
  // As our limiter's gate: an address over its limit is refused here until its window ends, without a write.
  const blockedUntil = new Map<string, number>();
  const refusal = (untilMs: number) => ({ allowed: false, retryAfter: Math.max(1, Math.ceil((untilMs - Date.now()) / 1000)) });
  return {
    async consume(key: string, rule: { window: number; max: number }): Promise<{ allowed: boolean; retryAfter: number | null }> {
      const gatedUntil = blockedUntil.get(key);
      if (gatedUntil !== undefined && gatedUntil > Date.now()) return refusal(gatedUntil);
      blockedUntil.delete(key);
      const { count, resetAt } = await countRequest(db, storedRateLimitKey(`auth-ip:${key}`, secret), rule.window);
      if (count <= rule.max) return { allowed: true, retryAfter: null };
      if (blockedUntil.size >= MAX_GATED_KEYS) blockedUntil.clear();
      blockedUntil.set(key, resetAt.getTime());
      return refusal(resetAt.getTime());
    },
  };
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
