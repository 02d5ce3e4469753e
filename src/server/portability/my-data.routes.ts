import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import type { AppDeps } from '../app-deps.js';
import { myDataZip } from './export/my-data.service.js';
import { limitedPerUser } from '../core/visitor-contexts.js';

const MY_DATA_LIMIT = { max: 5, windowSeconds: 60 * 60 };

/** 'Download my data' in Settings: the signed-in reader's blogs, images, comments and votes as one zip. */
export const myDataRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/account/my-data.zip',
    {
      config: limitedPerUser('my-data:user', MY_DATA_LIMIT, 'You downloaded your data several times in the last hour. Please try again later.'),
      schema: {
        tags: ['account'],
        summary: "The signed-in reader's data as a zip: blogs as Markdown with front matter, images, comments and votes",
        // The zip is a stream, which Fastify sends as it is (no serialiser runs on it).
        response: { 200: z.unknown().describe('application/zip'), 401: apiErrorSchema, 429: apiErrorSchema },
      },
      // Already compressed (images stored, texts deflated).
      compress: false,
    },
    async (request, reply) => {
      const stream = await myDataZip({ db: deps.db, storage: deps.storage }, request.user.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.zip"`)
        .send(stream);
    },
  );
};
