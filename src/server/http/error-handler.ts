import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

/** The one place that turns errors into `{ error, message }`. 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.retryAfterSeconds) void reply.header('retry-after', String(err.retryAfterSeconds));
      if (err.statusCode >= 500) request.log.error({ err }, err.message);
      return reply.status(err.statusCode).send({ error: err.code, message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      return reply.status(400).send({ error: 'BAD_REQUEST', message: first?.message ?? 'The request is not valid.' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.status(500).send({ error: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' });
    }
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 429 ? 'TOO_MANY_REQUESTS' : 'BAD_REQUEST';
    return reply.status(status).send({ error: err.code && !err.code.startsWith('FST_') ? err.code : code, message: err.message });
  });

}
