import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { OUTBOX_LIMIT, outboxSchema } from '../../shared/outbox-schema.js';
import type { Config } from '../config.js';
import { latestOutboxMails } from './outbox.js';

/**
 * `GET /api/admin/outbox` (issue 58): with no SMTP server, the newest mails the site wrote to its
 * outbox folder, for the owner and administrators (`{ site: 'manage' }`), so a first sign-up's link
 * is found without a shell. Registered only while `SMTP_URL` is unset.
 */
export const outboxRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const folder = path.join(config.dataDir, 'mail');
  const siteOrigin = new URL(config.publicUrl).origin;
  app.get(
    '/api/admin/outbox',
    {
      schema: {
        tags: ['admin'],
        summary: 'The newest mails written to the outbox folder (no SMTP server), newest first',
        response: { 200: outboxSchema, 404: apiErrorSchema },
      },
    },
    async () => ({ mails: await latestOutboxMails(folder, OUTBOX_LIMIT, siteOrigin) }),
  );
};
