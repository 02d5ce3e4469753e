import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';

export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/health',
    { schema: { tags: ['health'], summary: 'Answers once the database answers', response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => {
      await sql`select 1`.execute(deps.db);
      return { status: 'ok' as const };
    },
  );
};
