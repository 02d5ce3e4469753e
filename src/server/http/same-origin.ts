import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one same-origin rule, for every write to our API and for the GETs that sign someone in.
 * Cookies ride along on cross-site requests, so such a request must show it came from our own
 * pages: a browser sends `Origin` with every POST, PUT, PATCH and DELETE (same-origin ones
 * included), `Sec-Fetch-Site` with every request, and our Referrer-Policy keeps `Referer` on
 * same-origin fetches. Any of them naming another site, or none of them at all, is refused.
 * Origins are compared as URLs (`URL.origin`), never as raw strings.
 */
export function isFromOwnSite(request: FastifyRequest, ownOrigin: string): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin !== undefined) return originOf(origin) === ownOrigin;
  const referer = request.headers.referer;
  if (referer !== undefined) return originOf(referer) === ownOrigin;
  return fetchSite === 'same-origin';
}

export const CROSS_SITE_MESSAGE = 'This request must come from this site’s own pages (cross-site requests are refused).';

export function assertFromOwnSite(request: FastifyRequest, ownOrigin: string): void {
  if (!isFromOwnSite(request, ownOrigin)) throw forbidden(CROSS_SITE_MESSAGE);
}

function originOf(value: string): string | undefined {
  // `Origin: null` (sandboxed frames, some redirects) parses to the origin "null": no match.
  return URL.canParse(value) ? new URL(value).origin : undefined;
}

/**
 * Every write below /api/ passes the same-origin rule. Better Auth's endpoints run it in
 * their own guard (`auth/auth-guards.ts`), which knows the provider callbacks that are exempt.
 */
export function registerSameOriginCheck(app: FastifyInstance, publicUrl: string): void {
  const ownOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/') || request.url.startsWith('/api/auth/')) return;
    assertFromOwnSite(request, ownOrigin);
  });
}
