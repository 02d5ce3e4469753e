import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tagsPageSchema, tagsQuerySchema, tagSuggestionsQuerySchema, tagSuggestionsSchema } from '../../shared/tag-schema.js';
import type { AppDeps } from '../app-deps.js';
import { LISTS } from '../cache/route-caching.js';
import { countRead, publicRead } from '../cache/public-read.js';
import { listTags, suggestTags } from './tags.service.js';

/** Both routes' options: cached under `lists`, counted against the public read limit. */
const tagsRead = <Schema extends FastifySchema>(schema: Schema) => publicRead(LISTS, { tags: ['tags'], ...schema });

/**
 * The tags of public blogs. The same for every reader (no votes in them): the response cache keeps
 * the anonymous answers under `lists`, and browsers revalidate.
 */
export const tagRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const sameForEveryReader = (request: FastifyRequest, reply: FastifyReply) => {
    countRead(deps, request);
    void reply.header('cache-control', 'no-cache');
  };

  const listSummary = 'One page of the tags of public blogs, the most used first (100 a page), with how many public blogs carry each';
  app.get('/api/tags', tagsRead({ summary: listSummary, querystring: tagsQuerySchema, response: { 200: tagsPageSchema } }), async (request, reply) => {
    sameForEveryReader(request, reply);
    return listTags(deps, request.query.page);
  });

  const suggestionsSummary = "The most used tags starting with `prefix` (the editor's suggestions as a writer types), at most 8";
  app.get('/api/tag-suggestions', tagsRead({ summary: suggestionsSummary, querystring: tagSuggestionsQuerySchema, response: { 200: tagSuggestionsSchema } }), async (request, reply) => {
    sameForEveryReader(request, reply);
    return suggestTags(deps, request.query.prefix);
  });
};
