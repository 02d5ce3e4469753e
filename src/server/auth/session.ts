import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { unauthorized } from '../errors.js';
import type { Auth } from './auth.js';
import { findSessionWithUser } from './session.repository.js';

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

/**
 * The one way the server reads the session: Better Auth's signed cookie, checked against the
 * database on every request (no cookie cache: sign-out and a deleted session end at once).
 *
 * Most requests take a short path that gives the same answer as Better Auth's `getSession`: the
 * cookie's signature is checked with Node's HMAC (as better-call signs it: base64 HMAC-SHA256 of
 * the token under the auth secret) and one query reads the session with its user. Anything else
 * goes to Better Auth itself: a signature it might still accept, an expired session (which it
 * deletes), and a session due for its daily refresh (which it extends). The short path spares a
 * signed-in request Better Auth's endpoint machinery, its WebCrypto key import and its second
 * query, which the profiles showed as a third of the request's time (docs/performance.md).
 */
export function createSessions(auth: Auth, db: Kysely<Database>): Sessions {
  const cache = new WeakMap<FastifyRequest, Promise<SessionInfo | null>>();
  const settings = auth.$context.then((context) => ({
    secret: context.secret,
    cookieName: context.authCookies.sessionToken.name,
    expiresInMs: context.sessionConfig.expiresIn * 1000,
    updateAgeMs: context.sessionConfig.updateAge * 1000,
  }));

  const fromBetterAuth = (request: FastifyRequest): Promise<SessionInfo | null> =>
    auth.api.getSession({ headers: fromNodeHeaders(request.headers) }).then((result) =>
      result
        ? {
            user: { id: result.user.id, email: result.user.email },
            session: { id: result.session.id, createdAt: new Date(result.session.createdAt) },
          }
        : null,
    );

  const lookUp = async (request: FastifyRequest): Promise<SessionInfo | null> => {
    const { secret, cookieName, expiresInMs, updateAgeMs } = await settings;
    const signed = cookieValue(request.headers.cookie ?? '', cookieName);
    if (signed === undefined) return null;
    const token = verifiedToken(signed, secret);
    if (token === undefined) return fromBetterAuth(request);
    const row = await findSessionWithUser(db, token);
    if (!row) return null;
    const expiresAt = new Date(row.expiresAt).getTime();
    const now = Date.now();
    if (expiresAt < now || expiresAt - expiresInMs + updateAgeMs <= now) return fromBetterAuth(request);
    return { user: { id: row.userId, email: row.email }, session: { id: row.id, createdAt: new Date(row.createdAt) } };
  };

  const read = (request: FastifyRequest) => {
    let pending = cache.get(request);
    if (!pending) {
      // No cookie, no session: spare anonymous readers any work.
      pending = request.headers.cookie ? lookUp(request) : Promise.resolve(null);
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

/** The (URL-decoded) value of one cookie in a Cookie header; undefined when absent or malformed. */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The token of a `token.signature` cookie value when the signature is ours; undefined otherwise. */
function verifiedToken(signed: string, secret: string): string | undefined {
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return undefined;
  const token = signed.slice(0, dot);
  const signature = Buffer.from(signed.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : undefined;
}
