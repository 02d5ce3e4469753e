import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { postsPageSchema, postsQuerySchema, reviewStateSchema, sendBackSchema } from '../../shared/posts-schema.js';
import type { AppDeps } from '../app-deps.js';
import { idParams } from '../http/ids.js';
import { listPosts, reviewState, sendBack } from './posts.js';

/** Posts (issue 59), signed in: every blog for those who may edit any, a writer's own for the rest (the service decides). */
export const postsSignedInRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/posts',
    {
      schema: {
        tags: ['blogs'],
        summary: "One page of Posts: every blog for editors and above, the visitor's own for authors and contributors; with what the visitor may do with each",
        querystring: postsQuerySchema,
        response: { 200: postsPageSchema, 401: apiErrorSchema },
      },
    },
    async (request) => listPosts(deps, request.user, request.query),
  );
};

/** The review queue (issue 59): for those who may edit any blog. */
export const reviewRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/posts/:id/review',
    {
      schema: {
        tags: ['blogs'],
        summary: 'Who submitted a draft for review and when (editors and above)',
        params: idParams,
        response: { 200: reviewStateSchema, 404: apiErrorSchema },
      },
    },
    async (request) => reviewState(deps, request.params.id),
  );

  app.post(
    '/api/blogs/:id/send-back',
    {
      schema: {
        tags: ['blogs'],
        summary: 'Send a submitted draft back to its writer with a note; they are mailed the note (editors and above)',
        params: idParams,
        body: sendBackSchema,
        response: { 204: z.null(), 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await sendBack(deps, request.params.id, request.body.note);
      return reply.status(204).send(null);
    },
  );
};
