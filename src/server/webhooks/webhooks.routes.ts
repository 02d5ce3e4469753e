import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { createdWebhookSchema, newWebhookSchema, webhookDeliverySchema, webhookIdParamsSchema, webhookListSchema } from '../../shared/webhook-schema.js';
import type { AppDeps } from '../app-deps.js';
import { privateAnswer } from '../cache/route-caching.js';
import type { FastifyRequest } from 'fastify';
import type { WebhooksDeps } from './webhooks.service.js';
import { createWebhook, deleteWebhook, listWebhooks, sendTest } from './webhooks.service.js';

/** `/api/admin/webhooks…` (issue 44): owner and administrators only; everyone else gets the site's 404. */
export const webhookRoutes: FastifyPluginAsyncZod<AppDeps & { webhooks: WebhooksDeps }> = async (app, deps) => {
  const actorOf = ({ user }: FastifyRequest) => ({ id: user.id, email: user.email });

  app.get(
    '/api/admin/webhooks',
    { schema: { tags: ['admin'], summary: 'The webhooks, each with its recent deliveries (secrets masked)', response: { 200: webhookListSchema, 404: apiErrorSchema } } },
    async () => listWebhooks(deps.webhooks),
  );

  app.post(
    '/api/admin/webhooks',
    {
      config: privateAnswer,
      schema: {
        tags: ['admin'],
        summary: 'Add a webhook; the answer is the only one that shows its secret',
        body: newWebhookSchema,
        response: { 201: createdWebhookSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await createWebhook(deps.webhooks, actorOf(request), request.body)),
  );

  app.delete(
    '/api/admin/webhooks/:id',
    { config: privateAnswer, schema: { tags: ['admin'], summary: 'Delete a webhook and its deliveries', params: webhookIdParamsSchema, response: { 204: z.null(), 404: apiErrorSchema } } },
    async (request, reply) => {
      await deleteWebhook(deps.webhooks, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/webhooks/:id/test',
    { config: privateAnswer, schema: { tags: ['admin'], summary: 'Send a test delivery (queued; its outcome shows in the list)', params: webhookIdParamsSchema, response: { 202: webhookDeliverySchema, 404: apiErrorSchema } } },
    async (request, reply) => reply.status(202).send(await sendTest(deps.webhooks, request.params.id)),
  );
};
