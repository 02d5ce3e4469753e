import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { GhostError } from './content-api.service.js';

/** Ghost's error shape: `{ errors: [{ message, context, type }] }`. */
export const ghostErrorBody = (message: string, type: string) => ({ errors: [{ message, context: null, type }] });

/** Ghost's type for an HTTP status this site's own errors carry. */
const TYPES: Record<number, string> = { 403: 'NoPermissionError', 404: 'NotFoundError', 413: 'RequestEntityTooLargeError', 415: 'UnsupportedMediaTypeError' };

/**
 * One error handler for Ghost's APIs: their own errors as they are, a rate limit as Ghost's 429,
 * the site's refusals in Ghost's types; any other refusal of the request as `invalid` says (the
 * Content API's 400 BadRequestError, the Admin API's 422 ValidationError, as Ghost answers each).
 */
export function ghostErrorHandler(api: string, invalid: { status: number; type: string }) {
  return async (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof GhostError) return reply.status(error.status).send(ghostErrorBody(error.message, error.type));
    if (error instanceof AppError && error.statusCode === 429) {
      if (error.retryAfterSeconds) void reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(429).send(ghostErrorBody(error.message, 'TooManyRequestsError'));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && TYPES[status]) return reply.status(status).send(ghostErrorBody(error.message, TYPES[status]));
    if (status && status >= 400 && status < 500) return reply.status(invalid.status).send(ghostErrorBody(error.message, invalid.type));
    request.log.error({ err: error }, api);
    return reply.status(500).send(ghostErrorBody('Internal server error.', 'InternalServerError'));
  };
}
