import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { analyticsRangeQuerySchema, blogAnalyticsSchema, siteAnalyticsSchema } from '../../shared/analytics-schema.js';
import { apiErrorSchema } from '../../shared/api-error.js';
import type { AppDeps } from '../app-deps.js';
import { isModerator } from '../core/moderators.js';
import { forbidden, notFound } from '../errors.js';
import { idParams, parseId } from '../http/ids.js';
import { blogOf } from './analytics.repository.js';
import { todaysFigures } from './analytics.job.js';
import { blogAnalytics, rangeOf, siteAnalytics, siteCsv } from './analytics.service.js';

/** Today's figures at most a minute old when a range holds today (`todaysFigures`). */
const freshenerOf = (app: FastifyInstance, deps: AppDeps & { now: () => Date }) =>
  todaysFigures({ db: deps.db, now: deps.now, buffer: app.analytics, flushMs: deps.config.analytics.flushMs, rawDays: deps.config.analytics.rawDays });

/**
 * The site's figures as JSON and CSV, for moderators (their context gives everyone else the 404 of
 * every moderation endpoint).
 */
export const siteAnalyticsRoutes: FastifyPluginAsyncZod<AppDeps & { now: () => Date }> = async (app, deps) => {
  const freshen = freshenerOf(app, deps);

  app.get(
    '/api/analytics/site',
    {
      schema: {
        tags: ['analytics'],
        summary: 'The site’s views and visitors per day, referrers, where readers came from, top blogs, and readers over time (moderators only)',
        querystring: analyticsRangeQuerySchema,
        response: { 200: siteAnalyticsSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const range = rangeOf(request.query, deps.now());
      await freshen(range);
      return siteAnalytics(deps.db, range);
    },
  );

  app.get(
    '/api/analytics/site.csv',
    {
      schema: {
        tags: ['analytics'],
        summary: 'The site’s figures of a range as CSV: the days, the referrers, the sources and the top blogs (moderators only)',
        querystring: analyticsRangeQuerySchema,
        response: { 200: z.string(), 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const range = rangeOf(request.query, deps.now());
      await freshen(range);
      const csv = siteCsv(await siteAnalytics(deps.db, range));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="analytics-${range.from}-to-${range.to}.csv"`)
        .send(csv);
    },
  );

};

/** A blog's figures, for its author and for moderators (401 signed out, 403 someone else's). */
export const analyticsRoutes: FastifyPluginAsyncZod<AppDeps & { now: () => Date }> = async (app, deps) => {
  const freshen = freshenerOf(app, deps);
  app.get(
    '/api/analytics/blogs/:id',
    {
      schema: {
        tags: ['analytics'],
        summary: 'One blog’s views and visitors per day, referrers and where readers came from (its author and moderators)',
        params: idParams,
        querystring: analyticsRangeQuerySchema,
        response: { 200: blogAnalyticsSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { user } = request;
      const id = parseId(request.params.id, () => notFound('This blog does not exist.'));
      const blog = await blogOf(deps.db, id);
      if (!blog) throw notFound('This blog does not exist.');
      if (blog.user_id !== user.id && !isModerator(deps.config, user)) throw forbidden('Only the blog’s author sees its figures.');
      const range = rangeOf(request.query, deps.now());
      await freshen(range);
      return blogAnalytics(deps.db, blog, range);
    },
  );
};
