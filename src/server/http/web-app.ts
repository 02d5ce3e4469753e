import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface WebAppOptions {
  webRoot: string;
  uploadsRoot?: string;
  /** Answers page requests (server rendering); without it, pages get the JSON 404. */
  renderPage?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/**
 * Serves the built web app's files (hashed assets cached for a year) and uploads, and sends every
 * other GET that is not the API to the page renderer, which answers with the page and its real
 * status (404 for unknown paths). Unknown /api paths and missing files get the JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions) {
  const built = existsSync(options.webRoot);

  if (built) {
    await app.register(fastifyStatic, {
      root: options.webRoot,
      prefix: '/',
      wildcard: false,
      index: false,
      // The template is filled in by the renderer; it is never served as it is.
      allowedPath: (pathname) => pathname !== '/index.html',
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
    if (isPage && !looksLikeFile && options.renderPage) return options.renderPage(request, reply);
    return reply.status(404).send({ error: 'NOT_FOUND', message: `No route for ${request.method} ${pathname}` });
  });
}
