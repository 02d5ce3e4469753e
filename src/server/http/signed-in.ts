import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import type { SessionUser } from '../core/session-user.js';
import type { RateLimitRule } from '../rate-limit/rate-limit.js';

/**
 * The `preValidation` of a route for signed-in users: signed-out callers get 401 before anything
 * about the request itself (its id, its body) is judged.
 */
export function signedInFirst(deps: Pick<AppDeps, 'sessions'>) {
  return {
    preValidation: async (request: FastifyRequest) => {
      await deps.sessions.requireUser(request);
    },
  };
}

/**
 * The signed-in user of a write limited per user (counted under `${key}:${user id}`): 401 for
 * anyone signed out, then 429 with `message` past `rule`.
 */
export async function rateLimitedUser(
  deps: Pick<AppDeps, 'sessions' | 'limiter'>,
  request: FastifyRequest,
  key: string,
  rule: RateLimitRule,
  message?: string,
): Promise<SessionUser> {
  const user = await deps.sessions.requireUser(request);
  await deps.limiter.enforce(`${key}:${user.id}`, rule, message);
  return user;
}
