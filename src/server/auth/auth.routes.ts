import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app.js';
import { CLIENT_IP_HEADER } from './auth.js';

/** Headers a client could use to pretend to be another address; Fastify's `request.ip` decides. */
const SPOOFABLE_HEADERS = new Set(['x-forwarded-for', 'x-real-ip', 'cf-connecting-ip', 'forwarded', CLIENT_IP_HEADER]);

export function toFetchRequest(request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined || SPOOFABLE_HEADERS.has(key)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && typeof request.body === 'string';
  return new Request(new URL(request.url, publicUrl), {
    method: request.method,
    headers,
    body: hasBody ? (request.body as string) : undefined,
  });
}

/** Mounts Better Auth's own endpoints at /api/auth/*, passing bodies through untouched. */
export const authRoutes: FastifyPluginAsync<AppDeps> = async (app, deps) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(request, reply) {
      await deps.authGuards?.(request);
      const response = await deps.auth.handler(toFetchRequest(request, deps.config.publicUrl));
      void reply.status(response.status);
      response.headers.forEach((value, key) => {
        void reply.header(key, value);
      });
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
};
