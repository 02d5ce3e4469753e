import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { voteInputSchema, voteResultSchema } from '../../shared/blog-schema.js';
import { messages } from '../../shared/messages.js';
import type { AppDeps } from '../app-deps.js';
import { notFound } from '../errors.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { castVote, removeVote } from './votes.service.js';
import { apiErrorSchema } from '../../shared/api-error.js';
import { changes, theBlogAndLists } from '../cache/route-caching.js';
import { idParams, parseId } from '../http/ids.js';

/**
 * Per client address: more than anyone clicks by hand, a stop for a script. Counted in memory and
 * added to the shared counters in batches (`enforceBatched`), so a vote costs one round trip.
 */
export const VOTE_RATE_LIMIT = { max: 120, windowSeconds: 60 };
const TOO_MANY_VOTES = 'You are voting very fast. Please wait a moment and try again.';
/** A malformed id names no blog: the same 404 as an unknown one. */
const noSuchBlog = () => notFound(messages.blogDoesNotExist);


export const voteRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  /** The signed-in voter's id, the vote counted against the client's limit. */
  const voterId = (request: FastifyRequest): string => {
    deps.limiter.enforceBatched(`vote:${clientKey(request.ip)}`, VOTE_RATE_LIMIT, TOO_MANY_VOTES);
    return request.user.id;
  };

  app.put(
    '/api/blogs/:id/vote',
    {
      config: changes(theBlogAndLists),
      schema: {
        tags: ['votes'],
        summary: "Vote a blog up or down; voting the other way moves the user's vote",
        params: idParams,
        body: voteInputSchema,
        response: { 200: voteResultSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => {
      const userId = voterId(request);
      const command = { blogId: parseId(request.params.id, noSuchBlog), userId, direction: request.body.direction };
      return castVote(deps.db, command, deps.publicData.writeNotice(request));
    },
  );

  app.delete(
    '/api/blogs/:id/vote',
    {
      config: changes(theBlogAndLists),
      schema: {
        tags: ['votes'],
        summary: "Take the user's vote on a blog back (nothing to do when there is none)",
        params: idParams,
        response: { 200: voteResultSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const userId = voterId(request);
      return removeVote(deps.db, { blogId: parseId(request.params.id, noSuchBlog), userId });
    },
  );
};
