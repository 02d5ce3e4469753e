import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { notFound } from '../errors.js';
import type { SessionUser } from './session-user.js';
import { may } from '../people/access.js';

/**
 * Moderators are editors and above (issue 44), and the accounts `MODERATOR_EMAILS` names (at
 * least editors); the server asks this on every moderation request.
 */
export function isModerator(config: Config, user: SessionUser | null): user is SessionUser {
  return may(config, user, { moderation: 'moderate' });
}

/** What everyone else gets from a moderation endpoint: the same 404 as for a page that does not exist. */
export const notAModerator = () => notFound();

/**
 * The moderators-only routes' guard: `requireModerator` runs before anything about the request is
 * judged (as `onRequest`), so everyone but a moderator gets the same 404 as for a page that does
 * not exist; `moderatorOf` gives the handler the moderator it let through.
 */
export function moderatorGuard(deps: { sessions: { optionalUser(request: FastifyRequest): Promise<SessionUser | null> }; config: Config }) {
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
