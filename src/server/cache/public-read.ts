import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { cachedAs, declaredReadLimit, type Tags } from './route-caching.js';
import { clientKey, PUBLIC_READ_LIMIT, type RateLimiter, type ReadLimit } from '../rate-limit/rate-limit.js';

/** Who the reader is, if signed in (the app's `sessions`; declared here so the cache imports nothing above it). */
export interface OptionalReader {
  optionalUser(request: FastifyRequest): Promise<{ id: string } | null>;
}

/**
 * The options of a public read API: its anonymous answers are kept under `shows`, and its reads are
 * counted against `readLimit`, by the route (`publicReader`, `countRead`) and the cache's hits alike.
 */
export function publicRead<Schema extends FastifySchema>(shows: Tags, schema: Schema, readLimit: ReadLimit = PUBLIC_READ_LIMIT) {
  return { config: cachedAs(shows, { readLimit }), schema };
}

/**
 * How every public read API starts: counts the read against the client's limit (the one its route
 * declares with its caching, which the cache's hits keep too; in memory, added
 * to the shared counters in batches), marks the answer private to its reader (it carries their own
 * votes), and gives the signed-in reader's id, or null.
 */
export async function publicReader(
  deps: { limiter: RateLimiter; sessions: OptionalReader },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | null> {
  countRead(deps, request);
  const viewer = await deps.sessions.optionalUser(request);
  void reply.header('cache-control', 'private, no-cache');
  return viewer?.id ?? null;
}

/** Counts a read against the limit its route declares (in memory, added to the shared counters in batches). */
export function countRead(deps: { limiter: RateLimiter }, request: FastifyRequest): void {
  const limit = declaredReadLimit(request);
  deps.limiter.enforceBatched(`${limit.prefix}:${clientKey(request.ip)}`, limit.rule, limit.message);
}
