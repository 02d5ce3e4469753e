import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authorPageSchema, blogAddressSchema, blogListQuerySchema, blogPageSchema, blogSchema, pageQuerySchema } from '../../shared/blog-schema.js';
import type { AppDeps } from '../app-deps.js';
import { changes, LISTS, reportChanges, theBlog, theBlogAndLists } from '../cache/route-caching.js';
import { publicRead, publicReader } from '../cache/public-read.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { BLOG_FORM_LIMITS, readBlogForm } from './blog-form.js';
import {
  assertOwnBlog,
  createBlogAs,
  deleteBlog,
  findBlogAddress,
  getBlog,
  listAuthorBlogs,
  listBlogs,
  listDrafts,
  updateBlog,
  type BlogListDeps,
} from './blogs.service.js';
import { apiErrorSchema } from '../../shared/api-error.js';
import { idParams } from '../http/ids.js';
import { may } from '../core/access.js';
import { blogWriterOf, deleteWriterOf, mailReviewers } from './blog-review.js';
import { mailWriterPublished } from './posts.js';

/** Enough for anyone writing by hand; a stop for a script filling the disk with uploads. */
export const BLOG_CREATE_RATE_LIMIT = { max: 50, windowSeconds: 10 * 60 };
/** Edits carry images too: the same stop, per user and per client address. */
export const BLOG_UPDATE_RATE_LIMIT = { max: 60, windowSeconds: 10 * 60 };
export const TOO_MANY_EDITS = 'You have edited blogs many times in a short time. Please wait a few minutes and try again.';

// Any string: a malformed id is answered like an unknown one (404), not as bad input.
const multipartBody = {
  description:
    'multipart/form-data: `title`, `blog` (text), an optional `status` (`published`, the default on create, or `draft`: seen by its owner only; an edit without it keeps the status), optional `tags` (up to 5 lowercase tags separated by commas or spaces, each letters and digits in words joined by hyphens; an edit without the field keeps the tags, an empty one removes them) and an optional `image` file (JPEG, PNG, WebP, GIF, TIFF or AVIF). A draft may have an empty title or content.',
};

const blogServiceDeps = (deps: AppDeps) => (request: FastifyRequest): BlogListDeps => ({ db: deps.db, storage: deps.storage, log: request.log, publicData: deps.publicData, viewerVotes: deps.viewerVotes, siteSettings: deps.siteSettings });

/** Reading: lists, an author's page, one blog (anyone). */
export const blogRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = blogServiceDeps(deps);

  app.get(
    '/api/blogs',
    publicRead(LISTS, {
      tags: ['blogs'],
      summary:
        "One page of blogs: 'top' (best rated, then newest; the default), 'new' (newest first) or 'hot' (rating with time decay); `tag` keeps those carrying that tag",
      querystring: blogListQuerySchema,
      response: { 200: blogPageSchema },
    }),
    async (request, reply) => {
      const viewerId = await publicReader(deps, request, reply);
      return listBlogs(serviceDeps(request), viewerId, request.query);
    },
  );

  app.get(
    '/api/authors/:id/blogs',
    publicRead(LISTS, {
      tags: ['blogs'],
      summary: "One page of an author's blogs, newest first, and the author: e-mail, handle, display name and bio",
      params: idParams,
      querystring: pageQuerySchema,
      response: { 200: authorPageSchema, 404: apiErrorSchema },
    }),
    async (request, reply) => {
      const viewerId = await publicReader(deps, request, reply);
      return listAuthorBlogs(serviceDeps(request), viewerId, request.params.id, request.query.page);
    },
  );

  app.get(
    '/api/blogs/:id',
    publicRead(theBlog, { tags: ['blogs'], summary: 'One blog', params: idParams, response: { 200: blogSchema, 404: apiErrorSchema } }),
    async (request, reply) => {
      const viewerId = await publicReader(deps, request, reply);
      // Editors (issue 44) open anyone's blog to edit it, a draft submitted for review too.
      const anyBlog = viewerId !== null && may(deps.config, await deps.sessions.optionalUser(request), { blog: 'editAny' });
      return getBlog(serviceDeps(request), viewerId, request.params.id, anyBlog);
    },
  );

  // Kept under the lists' tag: every write that gives a blog another address, or takes one away
  // (a new title, a deletion, publishing, hiding), changes the lists too.
  app.get(
    '/api/blogs/by-slug/:slug',
    publicRead(LISTS, {
      tags: ['blogs'],
      summary: "The blog a readable address (`/blog/<slug>`) names: its id and current slug, which differs from the one asked for when that is an old address",
      params: z.object({ slug: z.string() }),
      response: { 200: blogAddressSchema, 404: apiErrorSchema },
    }),
    async (request, reply) => {
      const viewerId = await publicReader(deps, request, reply);
      return findBlogAddress(serviceDeps(request), viewerId, request.params.slug);
    },
  );
};

/** Writing: drafts, new blogs, changes, deletion (signed in; whose blog it is, the services say). */
export const blogSignedInRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  // Registered here, not on the app: only these routes accept multipart bodies.
  await app.register(fastifyMultipart, { limits: BLOG_FORM_LIMITS, throwFileSizeLimit: true });

  const serviceDeps = blogServiceDeps(deps);

  // Private to the viewer, so never in the response cache.
  app.get(
    '/api/drafts',
    {
      schema: {
        tags: ['blogs'],
        summary: "One page of the signed-in user's drafts, the last changed first",
        querystring: pageQuerySchema,
        response: { 200: blogPageSchema, 401: apiErrorSchema },
      },
    },
    async (request) => listDrafts(serviceDeps(request), request.user.id, request.query.page),
  );

  app.post(
    '/api/blogs',
    {
      config: changes(LISTS),
      schema: {
        tags: ['blogs'],
        summary: 'Create a blog (signed in)',
        consumes: ['multipart/form-data'],
        description: multipartBody.description,
        response: { 201: blogSchema, 400: apiErrorSchema, 401: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { user } = request;
      const writer = await blogWriterOf(deps, user);
      await deps.limiter.enforce(
        `blog-create:${user.id}`,
        BLOG_CREATE_RATE_LIMIT,
        'You have created many blogs in a short time. Please wait a few minutes before creating another.',
      );
      const form = await readBlogForm(request);
      const { blog, submitted } = await createBlogAs(serviceDeps(request), writer, form);
      if (submitted) await mailReviewers(deps, blog, user.email);
      if (blog.status === 'draft') reportChanges(request, []);
      return reply.status(201).send(blog);
    },
  );

  app.patch(
    '/api/blogs/:id',
    {
      config: changes(theBlogAndLists),
      schema: {
        tags: ['blogs'],
        summary: "Change a blog's title, content and optionally its status and image (owner only)",
        consumes: ['multipart/form-data'],
        description: multipartBody.description,
        params: idParams,
        response: { 200: blogSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema },
      },
    },
    async (request) => {
      const { user } = request;
      await deps.limiter.enforce(`blog-update:client:${clientKey(request.ip)}`, BLOG_UPDATE_RATE_LIMIT, TOO_MANY_EDITS);
      await deps.limiter.enforce(`blog-update:user:${user.id}`, BLOG_UPDATE_RATE_LIMIT, TOO_MANY_EDITS);
      const writer = await blogWriterOf(deps, user);
      const id = await assertOwnBlog(serviceDeps(request), user.id, request.params.id, writer.anyBlog);
      const form = await readBlogForm(request);
      const { blog, wasPublic, submitted, reviewedAndPublished } = await updateBlog(serviceDeps(request), writer, id, form);
      if (submitted) await mailReviewers(deps, blog, user.email);
      // Issue 59: the writer of a reviewed draft learns it is published (or scheduled), and where.
      if (reviewedAndPublished && blog.userId !== user.id) await mailWriterPublished(deps, blog);
      if (!wasPublic && blog.status === 'draft') reportChanges(request, []);
      return blog;
    },
  );

  app.delete(
    '/api/blogs/:id',
    {
      config: changes(theBlogAndLists),
      schema: {
        tags: ['blogs'],
        summary: 'Delete a blog and its image (owner only)',
        params: idParams,
        response: { 204: z.null(), 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { user } = request;
      await deleteBlog(serviceDeps(request), await deleteWriterOf(deps, user), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
