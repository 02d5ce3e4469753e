import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import {
  moderationActionSchema,
  moderationOverviewSchema,
  moderatorAccessSchema,
  reportCreatedSchema,
  reportInputSchema,
} from '../../shared/moderation-schema.js';
import { queueJobSchema, queueOverviewSchema } from '../../shared/subscription-schema.js';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { notFound } from '../errors.js';
import { createReport, getOverview, performAction } from './moderation.service.js';
import { changes, privateAnswer, reportChanges, reportedChanges } from '../cache/route-caching.js';
import { limitedPerUser } from '../core/visitor-contexts.js';

/** Reports per reader: more than anyone files by hand, a stop for a script flooding the moderators. */
export const REPORT_RATE_LIMIT = { max: 20, windowSeconds: 10 * 60 };
/** Moderator actions per moderator: a stop for a runaway script, far above any hand's pace. */
export const MODERATION_ACTION_RATE_LIMIT = { max: 300, windowSeconds: 10 * 60 };

/** Reporting a blog or a comment (signed in; limited per account). */
export const reportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = { db: deps.db, config: deps.config };

  app.post(
    '/api/reports',
    {
      config: limitedPerUser('report', REPORT_RATE_LIMIT, 'You have sent many reports in a short time. Please wait a few minutes.'),
      schema: {
        tags: ['moderation'],
        summary: 'Report a blog or a comment to the moderators (signed in; one open report per reader per item)',
        body: reportInputSchema,
        response: { 201: reportCreatedSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await createReport(serviceDeps, request.user, request.body)),
  );
};

/** The moderators' own routes: their context lets only moderators through (everyone else gets the site's 404). */
export const moderationRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = { db: deps.db, config: deps.config };

  app.get(
    '/api/moderation/access',
    {
      schema: {
        tags: ['moderation'],
        summary: 'Whether the signed-in user is a moderator: 200 for moderators, 404 for everyone else',
        response: { 200: moderatorAccessSchema, 404: apiErrorSchema },
      },
    },
    async () => {
      return { moderator: true as const };
    },
  );

  app.get(
    '/api/moderation',
    {
      schema: {
        tags: ['moderation'],
        summary: 'Open reports, hidden content, suspended accounts and the moderation log (moderators only)',
        response: { 200: moderationOverviewSchema, 404: apiErrorSchema },
      },
    },
    async () => {
      return getOverview(serviceDeps);
    },
  );

  app.post(
    '/api/moderation/actions',
    {
      config: { ...privateAnswer, ...changes(reportedChanges), ...limitedPerUser('moderation', MODERATION_ACTION_RATE_LIMIT, 'Too many moderation actions in a short time. Please wait a moment.') },
      schema: {
        tags: ['moderation'],
        summary: "Hide, restore, dismiss a report, suspend or unsuspend an account (moderators only); answers the page's new state",
        body: moderationActionSchema,
        response: { 200: moderationOverviewSchema, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      const changed = await performAction(serviceDeps, request.user, request.body);
      // The suspended account's sessions end at once in this process too (docs/performance.md).
      if (request.body.action === 'suspend') deps.sessions.forgetUser(request.body.userId);
      // Cached public answers go before this one is sent (docs/response-cache.md).
      reportChanges(request, changed);
      return getOverview(serviceDeps);
    },
  );

  const queueJob = (job: NonNullable<Awaited<ReturnType<AppDeps['queue']['retry']>>>) => ({
    ...job,
    runAt: job.runAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  });

  app.get(
    '/api/moderation/queue',
    {
      schema: {
        tags: ['moderation'],
        summary: 'The durable job queue: jobs by state, and the failed ones with their last error (moderators only)',
        response: { 200: queueOverviewSchema, 404: apiErrorSchema },
      },
    },
    async () => {
      const overview = await deps.queue.overview();
      return { counts: overview.counts, failed: overview.failed.map(queueJob) };
    },
  );

  app.post(
    '/api/moderation/queue/:id/retry',
    {
      config: limitedPerUser('moderation-action', MODERATION_ACTION_RATE_LIMIT),
      schema: {
        tags: ['moderation'],
        summary: 'Run a failed job again, its attempts counted afresh (moderators only)',
        params: z.object({ id: z.string().max(30) }),
        response: { 200: queueJobSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const job = await deps.queue.retry(request.params.id);
      if (!job) throw notFound('No failed job has this id.');
      return queueJob(job);
    },
  );
};
