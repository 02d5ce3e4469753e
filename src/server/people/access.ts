import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { SessionUser } from '../core/session-user.js';
import { notFound } from '../errors.js';
import { can, effectiveRole, type Permission } from './roles.js';

/** Whether the signed-in account may do the action; nobody signed in may do none. */
export function may(config: Config, user: SessionUser | null, permission: Permission): user is SessionUser {
  return user !== null && can(effectiveRole(config, user), permission);
}

/**
 * The guard of routes only some roles see (`/api/admin/…`): it runs before anything about the
 * request is judged (as `onRequest`), so everyone else gets the same 404 as for a page that does
 * not exist; `userOf` gives the handler the account it let through.
 */
export function roleGuard(deps: { sessions: { optionalUser(request: FastifyRequest): Promise<SessionUser | null> }; config: Config }, permission: Permission) {
  const allowed = new WeakMap<FastifyRequest, SessionUser>();
  return {
    requirePermission: async (request: FastifyRequest) => {
      const user = await deps.sessions.optionalUser(request);
      if (!may(deps.config, user, permission)) throw notFound();
      allowed.set(request, user);
    },
    userOf: (request: FastifyRequest) => allowed.get(request)!,
  };
}
