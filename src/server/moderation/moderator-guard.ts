import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import type { SessionUser } from '../auth/session.js';
import { isModerator, notAModerator } from './moderation.service.js';

/**
 * The moderators-only routes' guard: `requireModerator` runs before anything about the request is
 * judged (as `onRequest`), so everyone but a moderator gets the same 404 as for a page that does
 * not exist; `moderatorOf` gives the handler the moderator it let through.
 */
export function moderatorGuard(deps: Pick<AppDeps, 'sessions' | 'config'>) {
  const moderators = new WeakMap<FastifyRequest, SessionUser>();
  return {
    requireModerator: async (request: FastifyRequest) => {
      const user = await deps.sessions.optionalUser(request);
      if (!isModerator(deps.config, user)) throw notAModerator();
      moderators.set(request, user);
    },
    moderatorOf: (request: FastifyRequest) => moderators.get(request)!,
  };
}
