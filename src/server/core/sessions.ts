import type { AuthContext } from 'better-auth';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from './session-user.js';

/**
 * How every feature reads who is signed in: the `sessions` of `AppDeps`, made by the auth feature
 * (`auth/session.ts`). Declared here, in the core, so the features and `app-deps.ts` depend on
 * the shape, not on the auth feature.
 */
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
  /**
   * Forgets every remembered session of the user in this process, at once (the other processes
   * hear the database's `session_ended` notice within milliseconds): said by a write that ends
   * sessions, before its answer is sent.
   */
  forgetUser(userId: string): void;
  /** The same for one session (ended from Settings). */
  forgetSession(sessionId: string): void;
}

/**
 * What a feature other than auth may use of Better Auth's instance (`AppDeps['auth']`): its
 * request handler and its context (accepting an invitation makes the account through it). The
 * auth feature's own routes see the whole instance (`AuthAppDeps`, `auth/auth.ts`).
 */
export interface AuthHandle {
  handler(request: Request): Promise<Response>;
  $context: Promise<{ password: Pick<AuthContext['password'], 'hash'>; internalAdapter: Pick<AuthContext['internalAdapter'], 'createUser' | 'linkAccount'> }>;
}
