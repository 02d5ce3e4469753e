import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { commentInputSchema, commentListSchema, commentSchema, newCommentInputSchema } from '../../shared/comment-schema.js';
import type { AppDeps } from '../app-deps.js';
import { publicRead, publicReader } from '../cache/public-read.js';
import { registerCommentMailJob } from './comment-mail.service.js';
import { createComment, deleteComment, listComments, updateComment } from './comments.service.js';
import { changes, reportChanges, reportedChanges, theBlog } from '../cache/route-caching.js';
import { LISTS_TAG, blogTag } from '../../shared/cache-tags.js';
import { idParams } from '../http/ids.js';
import { limitedPerUser } from '../core/visitor-contexts.js';

/** A conversation by hand is a few comments a minute at most; a stop for a script posting spam. */
export const COMMENT_CREATE_RATE_LIMIT = { max: 30, windowSeconds: 10 * 60 };
/** Edits and deletions of comments together. */
export const COMMENT_CHANGE_RATE_LIMIT = { max: 60, windowSeconds: 10 * 60 };
const TOO_MANY_COMMENTS = 'You have written many comments in a short time. Please wait a few minutes before writing another.';
const TOO_MANY_CHANGES = 'You have changed comments many times in a short time. Please wait a few minutes and try again.';

// Any string: a malformed id is answered like an unknown one (404), not as bad input.

/**
 * What a comment write changes for anonymous readers: the blog's page and comments (`blog:{id}`)
 * and, when the number of comments moves, every card that shows it (`lists`). Named here because
 * `/api/comments/:id` does not carry the blog's id for the cache to read from the URL.
 */
const changedTags = (blogId: string, countChanged: boolean) => (countChanged ? [LISTS_TAG, blogTag(blogId)] : [blogTag(blogId)]);

export const commentRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = { db: deps.db, siteSettings: deps.siteSettings };
  registerCommentMailJob(deps.queue, { db: deps.db, mailer: deps.mailer, config: deps.config, siteSettings: deps.siteSettings, log: app.log });

  app.get(
    '/api/blogs/:id/comments',
    publicRead(theBlog, {
      tags: ['comments'],
      summary: "A blog's comments, oldest first, each with its replies",
      params: idParams,
      response: { 200: commentListSchema, 404: apiErrorSchema },
    }),
    async (request, reply) => {
      const viewerId = await publicReader(deps, request, reply);
      return listComments(serviceDeps, viewerId, request.params.id);
    },
  );
};

/** Commenting, changing and deleting one's comments (signed in; limited per account). */
export const commentSignedInRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = { db: deps.db, siteSettings: deps.siteSettings };

  app.post(
    '/api/blogs/:id/comments',
    {
      config: { ...changes(reportedChanges), ...limitedPerUser('comment-create', COMMENT_CREATE_RATE_LIMIT, TOO_MANY_COMMENTS) },
      schema: {
        tags: ['comments'],
        summary: 'Comment on a blog, or reply to a top-level comment with `parentId` (signed in)',
        params: idParams,
        body: newCommentInputSchema,
        response: { 201: commentSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const written = await createComment(serviceDeps, request.user.id, request.params.id, request.body);
      reportChanges(request, changedTags(written.blogId, true));
      // Its e-mails were queued with it (`comment-mail`).
      deps.queue.wake();
      return reply.status(201).send(written.comment);
    },
  );

  app.patch(
    '/api/comments/:id',
    {
      config: { ...changes(reportedChanges), ...limitedPerUser('comment-change', COMMENT_CHANGE_RATE_LIMIT, TOO_MANY_CHANGES) },
      schema: {
        tags: ['comments'],
        summary: "Change a comment's text (its author only)",
        params: idParams,
        body: commentInputSchema,
        response: { 200: commentSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      const written = await updateComment(serviceDeps, request.user.id, request.params.id, request.body);
      reportChanges(request, changedTags(written.blogId, false));
      return written.comment;
    },
  );

  app.delete(
    '/api/comments/:id',
    {
      config: { ...changes(reportedChanges), ...limitedPerUser('comment-change', COMMENT_CHANGE_RATE_LIMIT, TOO_MANY_CHANGES) },
      schema: {
        tags: ['comments'],
        summary: "Delete a comment and its replies (its author, or the blog's owner)",
        params: idParams,
        response: { 204: z.null(), 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { blogId } = await deleteComment(serviceDeps, request.user.id, request.params.id);
      reportChanges(request, changedTags(blogId, true));
      return reply.status(204).send(null);
    },
  );
};
