import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchPageSchema, searchQuerySchema } from '../../shared/blog-schema.js';
import type { AppDeps } from '../app-deps.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { searchBlogs } from './search.service.js';

/**
 * Per client address: far above anyone pressing Search by hand, and a stop for a flood (with
 * PGlite, searches run on the server's event loop and would stall every other request).
 */
export const TOO_MANY_SEARCHES = 'You are searching very fast. Please wait a moment and try again.';
export const SEARCH_RATE_LIMIT = { max: 60, windowSeconds: 60 };

export const searchRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search blogs by title (full-text, any of the words), best matches first, 5 per page',
        querystring: searchQuerySchema,
        response: { 200: searchPageSchema },
      },
    },
    async (request, reply) => {
      await deps.limiter.enforce(
        `search:${clientKey(request.ip)}`,
        SEARCH_RATE_LIMIT,
        TOO_MANY_SEARCHES,
      );
      const viewer = await deps.sessions.optionalUser(request);
      // Each blog carries the caller's own vote: no shared cache may keep one caller's answer.
      void reply.header('cache-control', 'private, no-cache');
      return searchBlogs(deps, { ...request.query, viewerId: viewer?.id ?? null });
    },
  );
};
