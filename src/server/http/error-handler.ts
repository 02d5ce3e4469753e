import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { AppError, serviceUnavailable } from '../errors.js';

/** Codes for errors that Fastify and its plugins raise with only a status. */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** The code of the error shape for an answer that has only a status. */
export function errorCodeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}

/** The one place that turns errors into `{ error, message }`. 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | AppError, request, reply) => {
    // A database that is restarting or unreachable is a 503 the client may retry, not a crash.
    const err = !(thrown instanceof AppError) && isDatabaseUnavailable(thrown) ? serviceUnavailable() : thrown;
    // One short line each: while the database is down, every request fails the same way.
    if (err !== thrown) request.log.warn({ cause: { code: (thrown as { code?: unknown }).code, message: thrown.message } }, 'database unavailable');
    if (err instanceof AppError) {
      if (err.retryAfterSeconds) void reply.header('retry-after', String(err.retryAfterSeconds));
      if (err.statusCode >= 500 && err.statusCode !== 503) request.log.error({ err }, err.message);
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
    const code = errorCodeForStatus(status);
    return reply.status(status).send({ error: err.code && !err.code.startsWith('FST_') ? err.code : code, message: err.message });
  });
}
