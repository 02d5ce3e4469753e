import type { FastifyInstance } from 'fastify';
import { forbidden } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cookies ride along on cross-site requests, so every write to our API must come from our own
 * pages: a foreign `Origin`, or a browser's `Sec-Fetch-Site: cross-site`, is refused. Requests
 * without either header (curl, server-to-server) carry no ambient browser cookies to abuse.
 * Better Auth's endpoints run their own, equivalent check.
 */
export function registerSameOriginCheck(app: FastifyInstance, publicUrl: string): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/') || request.url.startsWith('/api/auth/')) return;
    const origin = request.headers.origin;
    if (request.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && origin !== publicUrl)) {
      throw forbidden('This request did not come from this site.');
    }
  });
}
