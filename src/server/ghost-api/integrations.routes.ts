import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { createdIntegrationSchema, integrationListSchema, newIntegrationSchema } from '../../shared/integration-schema.js';
import { changes, privateAnswer } from '../cache/route-caching.js';
import { idParams } from '../http/ids.js';
import { createIntegration, GHOST_CONTENT_TAG, deleteIntegration, listIntegrations, regenerateIntegrationKeys, type IntegrationsDeps } from './integrations.service.js';

/** `/api/admin/integrations…` (issue 60): owner and administrators only; everyone else gets the site's 404. */
export const integrationRoutes: FastifyPluginAsyncZod<{ integrations: IntegrationsDeps }> = async (app, { integrations }) => {
  // Old keys' answers kept by the response cache go with them.
  const dropsKeptAnswers = { ...privateAnswer, ...changes([GHOST_CONTENT_TAG]) };
  const actorOf = ({ user }: FastifyRequest) => ({ id: user.id, email: user.email });

  app.get(
    '/api/admin/integrations',
    { schema: { tags: ['admin'], summary: 'The integrations of Ghost’s APIs, with their Content API keys (Admin API secrets never)', response: { 200: integrationListSchema, 404: apiErrorSchema } } },
    async () => listIntegrations(integrations),
  );

  app.post(
    '/api/admin/integrations',
    {
      config: privateAnswer,
      schema: { tags: ['admin'], summary: 'Add an integration; the answer is the only one that shows its Admin API key', body: newIntegrationSchema, response: { 201: createdIntegrationSchema, 400: apiErrorSchema, 404: apiErrorSchema } },
    },
    async (request, reply) => reply.status(201).send(await createIntegration(integrations, actorOf(request), request.body.name)),
  );

  app.post(
    '/api/admin/integrations/:id/regenerate',
    { config: dropsKeptAnswers, schema: { tags: ['admin'], summary: 'Make the integration’s keys anew (the old ones stop working); shown once', params: idParams, response: { 200: createdIntegrationSchema, 404: apiErrorSchema } } },
    async (request) => regenerateIntegrationKeys(integrations, actorOf(request), request.params.id),
  );

  app.delete(
    '/api/admin/integrations/:id',
    { config: dropsKeptAnswers, schema: { tags: ['admin'], summary: 'Delete an integration: its keys stop working', params: idParams, response: { 204: z.null(), 404: apiErrorSchema } } },
    async (request, reply) => {
      await deleteIntegration(integrations, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
