import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { pingDatabase } from './health.repository.js';
import { neverCached } from '../cache/route-caching.js';

/** A key no upload can have (uploads end in `-<random>.webp`): reading it asks the store, finds nothing. */
const STORAGE_PROBE_KEY = 'blogs/readiness-probe.webp';
const CHECK_TIMEOUT_MS = 3_000;

const checkResult = z.enum(['ok', 'failed']);
const readySchema = z.object({ status: z.literal('ok'), checks: z.object({ database: checkResult, storage: checkResult }) });
const notReadySchema = z.object({ error: z.string(), message: z.string(), checks: z.object({ database: checkResult, storage: checkResult }) });

/**
 * `/api/health` is the liveness check (the process answers, and so does its database: a site
 * without its database cannot serve a page). `/api/health/ready` is readiness for a load
 * balancer: the database and the image store both answer within a few seconds.
 */
export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/health',
    { config: neverCached, schema: { tags: ['health'], summary: 'Answers once the database answers', response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => {
      await pingDatabase(deps.db);
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/api/health/ready',
    { config: neverCached, schema: { tags: ['health'], summary: 'Ready to serve: the database and the image store answer', response: { 200: readySchema, 503: notReadySchema } } },
    async (request, reply) => {
      const [database, storage] = await Promise.all([
        check(() => pingDatabase(deps.db)),
        check(() => deps.storage.get(STORAGE_PROBE_KEY)),
      ]);
      const checks = { database: database ? ('ok' as const) : ('failed' as const), storage: storage ? ('ok' as const) : ('failed' as const) };
      void reply.header('cache-control', 'no-store');
      if (database && storage) return { status: 'ok' as const, checks };
      request.log.warn({ checks }, 'not ready');
      return reply.status(503).send({ error: 'SERVICE_UNAVAILABLE', message: 'The site is not ready: a service it needs does not answer.', checks });
    },
  );
};

async function check(probe: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
