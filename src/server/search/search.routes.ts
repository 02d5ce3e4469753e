import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchPageSchema, searchQuerySchema } from '../../shared/blog-schema.js';
import type { AppDeps } from '../app-deps.js';
import { enforceReadLimit, SEARCH_LIMIT } from '../rate-limit/rate-limit.js';
import { searchBlogs } from './search.service.js';

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
      enforceReadLimit(deps.limiter, SEARCH_LIMIT, request.ip);
      const viewer = await deps.sessions.optionalUser(request);
      // Each blog carries the caller's own vote: no shared cache may keep one caller's answer.
      void reply.header('cache-control', 'private, no-cache');
      return searchBlogs(deps, { ...request.query, viewerId: viewer?.id ?? null });
    },
  );
};
