import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactSchema } from '../../shared/contact-schema.js';
import type { AppDeps } from '../app-deps.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { receiveContactMessage } from './contact.service.js';

export const CONTACT_RATE_LIMIT = { max: 5, windowSeconds: 10 * 60 };

export const contactRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/api/contact',
    {
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the site team',
        body: contactSchema,
        response: { 201: z.object({ id: z.string(), message: z.string() }) },
      },
    },
    async (request, reply) => {
      await deps.limiter.enforce(
        `contact:${clientKey(request.ip)}`,
        CONTACT_RATE_LIMIT,
        'You have sent several messages already. Please wait a few minutes before sending another.',
      );
      const { id } = await receiveContactMessage(
        { db: deps.db, queue: deps.queue, contactTo: deps.config.mail.contactTo, log: request.log },
        request.body,
        request.ip,
      );
      return reply.status(201).send({ id, message: 'Thank you! Your message has been sent.' });
    },
  );
};
