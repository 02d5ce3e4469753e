import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchPageSchema, searchQuerySchema } from '../../shared/blog-schema.js';
import type { AppDeps } from '../app-deps.js';
import { LISTS } from '../cache/route-caching.js';
import { publicRead, publicReader } from '../cache/public-read.js';
import { SEARCH_LIMIT } from '../rate-limit/rate-limit.js';
import { searchBlogs } from './search.service.js';
import { searchBlogsInText } from './text-search.service.js';

export const searchRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/search',
    // The cache keeps the anonymous answer (no votes in it); a signed-in reader's is their own.
    publicRead(
      LISTS,
      {
        tags: ['search'],
        summary:
          "Search blogs by title (full-text, any of the words), best matches first, 5 per page; with `in=all`, titles and texts ('Search in text too': phrases in quotes, -word to leave out, a snippet per blog)",
        querystring: searchQuerySchema,
        response: { 200: searchPageSchema },
      },
      SEARCH_LIMIT,
    ),
    async (request, reply) => {
      // Each blog carries the caller's own vote: no shared cache may keep one caller's answer.
      const viewerId = await publicReader(deps, request, reply);
      const { in: searchIn, ...query } = request.query;
      return searchIn === 'all' ? searchBlogsInText(deps, { ...query, viewerId }) : searchBlogs(deps, { ...query, viewerId });
    },
  );
};
