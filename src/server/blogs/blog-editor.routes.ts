import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { blogSchema } from '../../shared/blog-schema.js';
import { blogPreviewInputSchema, blogPreviewSchema } from '../../shared/inline-image-schema.js';
import type { AppDeps } from '../app-deps.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { renderBlogWithImages } from './blog-rendering.service.js';
import { removeBlogImage, submitDraft } from './blogs.service.js';
import { changes, theBlogAndLists } from '../cache/route-caching.js';
import { idParams } from '../http/ids.js';
import { limitedPerUser } from '../core/visitor-contexts.js';
import { blogWriterOf, mailReviewers, maySubmit } from './blog-review.js';
import { forbidden } from '../errors.js';

/** A preview per click of 'Preview': far more than anyone writing clicks, per user and per address. */
export const BLOG_PREVIEW_RATE_LIMIT = { max: 120, windowSeconds: 10 * 60 };
const TOO_MANY_PREVIEWS = 'You have asked for many previews in a short time. Please wait a few minutes and try again.';

/** What the editor needs beyond the spec's form: a preview of the Content, and taking the cover image off. */
export const blogEditorRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/api/blogs/preview',
    {
      config: limitedPerUser('blog-preview:user', BLOG_PREVIEW_RATE_LIMIT, TOO_MANY_PREVIEWS),
      schema: {
        tags: ['blogs'],
        summary: "Render a blog's Content as its page would show it, without saving (signed in)",
        body: blogPreviewInputSchema,
        response: { 200: blogPreviewSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await deps.limiter.enforce(`blog-preview:client:${clientKey(request.ip)}`, BLOG_PREVIEW_RATE_LIMIT, TOO_MANY_PREVIEWS);
      // The stored blog is trimmed by its schema before it is rendered; the preview is too.
      const { rendered } = await renderBlogWithImages(deps, request.body.blog.trim());
      void reply.header('cache-control', 'no-store');
      return { html: rendered.html, readingMinutes: rendered.readingMinutes };
    },
  );

  // Issue 44: a contributor's draft waits for an editor; the editors are mailed through the queued mailer.
  app.post(
    '/api/blogs/:id/submit',
    {
      schema: {
        tags: ['blogs'],
        summary: "Submit one's own draft for an editor's review (contributors; authors when the site reviews new blogs)",
        params: idParams,
        response: { 200: blogSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { user } = request;
      if (!(await maySubmit(deps, user))) throw forbidden('Your role publishes its own blogs: there is no review to submit to.');
      const { blog, newly } = await submitDraft({ db: deps.db, storage: deps.storage, log: request.log, siteSettings: deps.siteSettings }, user.id, request.params.id);
      if (newly) await mailReviewers(deps, blog, user.email);
      return blog;
    },
  );

  // Answered with the blog; the response cache's write tags (`lists`, `blog:{id}`) cover this URL.
  app.delete(
    '/api/blogs/:id/image',
    {
      config: changes(theBlogAndLists),
      schema: {
        tags: ['blogs'],
        summary: "Remove a blog's image (owner only); its files are deleted",
        params: idParams,
        response: { 200: blogSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => removeBlogImage({ db: deps.db, storage: deps.storage, log: request.log, siteSettings: deps.siteSettings }, await blogWriterOf(deps, request.user), request.params.id),
  );
};
