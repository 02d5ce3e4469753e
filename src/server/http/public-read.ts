import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import { clientKey, PUBLIC_READ_LIMIT, type ReadLimit } from '../rate-limit/rate-limit.js';

/**
 * How every public read API starts: counts the read against the client's limit (in memory, added
 * to the shared counters in batches), marks the answer private to its reader (it carries their own
 * votes), and gives the signed-in reader's id, or null.
 */
export async function publicReader(
  deps: Pick<AppDeps, 'limiter' | 'sessions'>,
  request: FastifyRequest,
  reply: FastifyReply,
  limit: ReadLimit = PUBLIC_READ_LIMIT,
): Promise<string | null> {
  deps.limiter.enforceBatched(`${limit.prefix}:${clientKey(request.ip)}`, limit.rule, limit.message);
  const viewer = await deps.sessions.optionalUser(request);
  void reply.header('cache-control', 'private, no-cache');
  return viewer?.id ?? null;
}
