import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built React app: hashed assets cached for a year, `index.html` for every other
 * non-API GET so deep links and reloads work. Unknown /api paths get the JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, options: { webRoot: string; uploadsRoot?: string }) {
  const indexFile = path.join(options.webRoot, 'index.html');
  const built = existsSync(indexFile);

  if (built) {
    await app.register(fastifyStatic, {
      root: options.webRoot,
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const relative = path.relative(options.webRoot, filePath);
        res.header('cache-control', relative.startsWith('assets' + path.sep) ? IMMUTABLE : 'no-cache');
      },
    });
  }

  if (options.uploadsRoot) {
    mkdirSync(options.uploadsRoot, { recursive: true });
    await app.register(fastifyStatic, {
      root: options.uploadsRoot,
      prefix: '/uploads/',
      decorateReply: !built,
      index: false,
      setHeaders(res) {
        res.header('cache-control', IMMUTABLE);
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && pathname !== '/api';
    const looksLikeFile = pathname.startsWith('/assets/') || pathname.startsWith('/uploads/');
    if (isPage && !looksLikeFile && built) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', options.webRoot);
    }
    return reply.status(404).send({ error: 'NOT_FOUND', message: `No route for ${request.method} ${pathname}` });
  });
}
