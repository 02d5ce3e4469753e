import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Sessions } from './session.js';

/**
 * Writes that can end the caller's own sessions: Better Auth's endpoints (sign-out, revocation, a
 * password change or reset that ends the other sessions, the user's deletion) and our account
 * routes (deletion).
 */
function mayEndOwnSessions(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false;
  return request.url.startsWith('/api/auth/') || request.url.startsWith('/api/account');
}

/**
 * On Postgres the `session_ended` notice of a sign-out reaches this process a few milliseconds
 * after the statement commits, so a request right behind it (the same browser's next one) could
 * still find the session in memory. Such writes therefore forget the caller's remembered sessions
 * themselves, before their answer is sent. The caller is read before the write runs, since a
 * sign-out or deletion removes the very session that says who they are.
 */
export function registerSessionMemoryHooks(app: FastifyInstance, sessions: Sessions): void {
  const callers = new WeakMap<FastifyRequest, string>();
  app.addHook('preHandler', async (request) => {
    if (!mayEndOwnSessions(request) || !request.headers.cookie) return;
    const user = await sessions.optionalUser(request);
    if (user) callers.set(request, user.id);
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    const userId = callers.get(request);
    if (userId) sessions.forgetUser(userId);
    return payload;
  });
}
