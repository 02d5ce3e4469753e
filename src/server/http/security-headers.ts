import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers Helmet would set for these options, worked out once. `@fastify/helmet` runs
 * `helmet(options)` on every request, which parses and re-serialises the whole Content-Security-
 * Policy each time (about 8 % of an answer from the response cache in the profile,
 * docs/performance.md); the headers never change between requests, so they are computed here
 * with Helmet itself and copied onto each reply.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

/** Every reply (pages, API, files, errors, cache hits) carries the security headers. */
export function registerSecurityHeaders(app: FastifyInstance, securityHeaders: Record<string, string>): void {
  const headers = Object.entries(securityHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
