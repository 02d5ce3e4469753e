import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { pingDatabase } from './health.repository.js';

export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/health',
    { schema: { tags: ['health'], summary: 'Answers once the database answers', response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => {
      await pingDatabase(deps.db);
      return { status: 'ok' as const };
    },
  );
};
