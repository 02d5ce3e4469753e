import type { FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { unauthorized } from '../errors.js';
import type { Auth } from './auth.js';

export interface SessionUser {
  id: string;
  email: string;
}

export interface SessionInfo {
  user: SessionUser;
  session: { id: string; createdAt: Date };
}

export interface Sessions {
  /** The signed-in user, or null. */
  optionalUser(request: FastifyRequest): Promise<SessionUser | null>;
  /** The signed-in user; 401 otherwise. */
  requireUser(request: FastifyRequest): Promise<SessionUser>;
  /** The signed-in user and their session (for checks on how fresh it is); 401 otherwise. */
  requireSession(request: FastifyRequest): Promise<SessionInfo>;
}

/** The one way the server reads the session: Better Auth's cookie, checked against the database. */
export function createSessions(auth: Auth): Sessions {
  const cache = new WeakMap<FastifyRequest, Promise<SessionInfo | null>>();
  const read = (request: FastifyRequest) => {
    let pending = cache.get(request);
    if (!pending && !request.headers.cookie) {
      // No cookie, no session: spare anonymous readers a trip through Better Auth.
      pending = Promise.resolve(null);
      cache.set(request, pending);
    }
    if (!pending) {
      pending = auth.api.getSession({ headers: fromNodeHeaders(request.headers) }).then((result) =>
        result
          ? {
              user: { id: result.user.id, email: result.user.email },
              session: { id: result.session.id, createdAt: new Date(result.session.createdAt) },
            }
          : null,
      );
      cache.set(request, pending);
    }
    return pending;
  };
  const requireSession = async (request: FastifyRequest) => {
    const info = await read(request);
    if (!info) throw unauthorized();
    return info;
  };
  return {
    optionalUser: async (request) => (await read(request))?.user ?? null,
    requireUser: async (request) => (await requireSession(request)).user,
    requireSession,
  };
}
