import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { unauthorized } from '../errors.js';
import type { Auth } from './auth.js';
import { findSessionWithUser, touchSession } from './session.repository.js';
import type { SessionInfo, Sessions } from '../core/sessions.js';
import type { Role } from '../../shared/role-schema.js';

export type { SessionInfo, Sessions } from '../core/sessions.js';

/** A session's `last_seen_at` is written at most this often (Settings shows it to the minute or so). */
const LAST_SEEN_EVERY_MS = 5 * 60_000;

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
export function createSessions(auth: Auth, db: Kysely<Database>, remember: SessionMemory = noSessionMemory): Sessions {
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
            user: { id: result.user.id, email: result.user.email, role: result.user.role as Role },
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
    const fresh = (expiresAt: number, now: number) => expiresAt >= now && expiresAt - expiresInMs + updateAgeMs > now;
    const remembered = remember.get(token);
    if (remembered && fresh(remembered.expiresAt, Date.now())) return remembered.info;
    const startedAt = remember.generation;
    const row = await findSessionWithUser(db, token);
    if (!row) return null;
    const expiresAt = new Date(row.expiresAt).getTime();
    if (!fresh(expiresAt, Date.now())) return fromBetterAuth(request);
    const info = { user: { id: row.userId, email: row.email, role: row.role }, session: { id: row.id, createdAt: new Date(row.createdAt) } };
    remember.set(token, startedAt, { info, expiresAt });
    return info;
  };

  // When each session was last written as seen, in this process: a write every few minutes at most.
  const lastSeenWritten = new Map<string, number>();
  const seen = (info: SessionInfo | null) => {
    if (!info) return info;
    const now = Date.now();
    if (now - (lastSeenWritten.get(info.session.id) ?? 0) < LAST_SEEN_EVERY_MS) return info;
    if (lastSeenWritten.size >= 10_000) lastSeenWritten.clear();
    lastSeenWritten.set(info.session.id, now);
    // Not awaited: the request does not wait for it, and a failure only leaves an older time.
    touchSession(db, info.session.id).catch(() => lastSeenWritten.delete(info.session.id));
    return info;
  };

  const read = (request: FastifyRequest) => {
    let pending = cache.get(request);
    if (!pending) {
      // No cookie, no session: spare anonymous readers any work.
      pending = request.headers.cookie ? lookUp(request).then(seen) : Promise.resolve(null);
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
    forgetUser: (userId) => remember.ended(`user:${userId}`),
    forgetSession: (sessionId) => remember.ended(sessionId),
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

/** A session as remembered by this process: what a request needs, and when the session expires. */
export interface RememberedSession {
  info: SessionInfo;
  expiresAt: number;
}

/** Recently read sessions, by token (see `createSessionMemory`). */
export interface SessionMemory {
  get(token: string): RememberedSession | undefined;
  /** Keeps a session read from the database, unless one ended since `startedAt` (`generation` then). */
  set(token: string, startedAt: number, session: RememberedSession): void;
  readonly generation: number;
  /** A session ended (its id), or all of a user's did (`user:{id}`): the `session_ended` notice. */
  ended(payload: string): void;
  /** Notices may have been missed: forget everything, and keep nothing until `trust(true)`. */
  trust(reliable: boolean): void;
}

const noSessionMemory: SessionMemory = { get: () => undefined, set: () => {}, generation: 0, ended: () => {}, trust: () => {} };

/**
 * Sessions read in the last `ttlMs`, kept by this process so a signed-in reader's requests do not
 * each read the `session` row (a round trip on every request, most of a signed-in list's cost:
 * docs/performance.md). A session must still end at once: every deletion of a session row, and a
 * suspension, reaches every process as a `session_ended` notice (a trigger, migration
 * 2026-11-23-10) before the write's statement returns here on PGlite, and within milliseconds on
 * Postgres, and the entry goes. A read that started before such a notice is not kept (a
 * generation counter), and while a process may be missing notices (its listening connection is
 * down) it keeps nothing. Bounded: the oldest entries go first.
 */
export function createSessionMemory({ ttlMs, maxEntries = 10_000 }: { ttlMs: number; maxEntries?: number }): SessionMemory {
  if (ttlMs <= 0) return noSessionMemory;
  const byToken = new Map<string, RememberedSession & { until: number }>();
  const tokenById = new Map<string, string>();
  let generation = 0;
  let reliable = false;
  const forget = (token: string) => {
    const entry = byToken.get(token);
    if (!entry) return;
    byToken.delete(token);
    tokenById.delete(entry.info.session.id);
  };
  const clear = () => {
    generation += 1;
    byToken.clear();
    tokenById.clear();
  };
  return {
    get generation() {
      return generation;
    },
    get(token) {
      const entry = byToken.get(token);
      if (!entry) return undefined;
      if (entry.until > Date.now()) return entry;
      forget(token);
      return undefined;
    },
    set(token, startedAt, session) {
      if (!reliable || startedAt !== generation) return;
      forget(token);
      if (byToken.size >= maxEntries) {
        const oldest = byToken.keys().next().value;
        if (oldest !== undefined) forget(oldest);
      }
      byToken.set(token, { ...session, until: Date.now() + ttlMs });
      tokenById.set(session.info.session.id, token);
    },
    ended(payload) {
      generation += 1;
      if (payload.startsWith('user:')) {
        const userId = payload.slice(5);
        for (const [token, entry] of byToken) if (entry.info.user.id === userId) forget(token);
        return;
      }
      const token = tokenById.get(payload);
      if (token !== undefined) forget(token);
    },
    trust(next) {
      clear();
      reliable = next;
    },
  };
}
