import type { FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { unauthorized } from '../errors.js';
import type { Auth } from './auth.js';

export interface SessionUser {
  id: string;
  email: string;
}

export interface Sessions {
  /** The signed-in user, or null. */
  optionalUser(request: FastifyRequest): Promise<SessionUser | null>;
  /** The signed-in user; 401 otherwise. */
  requireUser(request: FastifyRequest): Promise<SessionUser>;
}

/** The one way the server reads the session: Better Auth's cookie, checked against the database. */
export function createSessions(auth: Auth): Sessions {
  const cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();
  const optionalUser = (request: FastifyRequest) => {
    let pending = cache.get(request);
    if (!pending) {
      pending = auth.api
        .getSession({ headers: fromNodeHeaders(request.headers) })
        .then((result) => (result ? { id: result.user.id, email: result.user.email } : null));
      cache.set(request, pending);
    }
    return pending;
  };
  return {
    optionalUser,
    async requireUser(request) {
      const user = await optionalUser(request);
      if (!user) throw unauthorized();
      return user;
    },
  };
}
