import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { postAuthorsSchema, postsPageSchema, postsQuerySchema, reviewStateSchema, sendBackSchema } from '../../shared/posts-schema.js';
import type { AppDeps } from '../app-deps.js';
import { idParams } from '../http/ids.js';
import { blogSchema } from '../../shared/blog-schema.js';
import type { BlogStatus } from '../../shared/blog-schema.js';
import { changes, reportChanges, theBlogAndLists } from '../cache/route-caching.js';
import { limitedPerUser } from '../core/visitor-contexts.js';
import { blogWriterOf, mailReviewers } from './blog-review.js';
import { BLOG_UPDATE_RATE_LIMIT, TOO_MANY_EDITS } from './blogs.routes.js';
import { changeBlogStatus } from './blogs.service.js';
import { listPostAuthors, listPosts, mailWriterPublished, reviewState, sendBack } from './posts.js';

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

  // Posts' 'Publish' and 'Unpublish' (issue 59): the status alone, by the rule and with the one
  // visibility event of an edit's status (`changeBlogStatus`); counted with the edits per account.
  const statusChange = (path: string, status: BlogStatus, summary: string) =>
    app.post(
      path,
      {
        config: { ...changes(theBlogAndLists), ...limitedPerUser('blog-update:user', BLOG_UPDATE_RATE_LIMIT, TOO_MANY_EDITS) },
        schema: {
          tags: ['blogs'],
          summary,
          params: idParams,
          response: { 200: blogSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
        },
      },
      async (request) => {
        const { user } = request;
        const writer = await blogWriterOf(deps, user);
        const serviceDeps = { db: deps.db, storage: deps.storage, log: request.log, siteSettings: deps.siteSettings };
        const { blog, wasPublic, submitted, reviewedAndPublished } = await changeBlogStatus(serviceDeps, writer, request.params.id, status);
        if (submitted) await mailReviewers(deps, blog, user.email);
        if (reviewedAndPublished && blog.userId !== user.id) await mailWriterPublished(deps, blog);
        if (!wasPublic && blog.status === 'draft') reportChanges(request, []);
        return blog;
      },
    );
  statusChange(
    '/api/blogs/:id/publish',
    'published',
    "Publish a blog now, its text as it is (Posts' 'Publish'): one's own (authors; a submission for review when the site reviews new blogs), anyone's (editors and above); a scheduled draft is published at once",
  );
  statusChange('/api/blogs/:id/unpublish', 'draft', "Make a blog a draft again, its text as it is (Posts' 'Unpublish'): one's own, or anyone's (editors and above)");
};

/** The review queue and Posts' 'Author' filter (issue 59): for those who may edit any blog. */
export const reviewRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/posts/authors',
    {
      schema: {
        tags: ['blogs'],
        summary: "Every account that has a blog, by name, for Posts' 'Author' filter, whatever page the list is on (editors and above; at most 500)",
        response: { 200: postAuthorsSchema, 404: apiErrorSchema },
      },
    },
    async () => listPostAuthors(deps),
  );

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
