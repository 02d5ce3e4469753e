import type { FastifySchema } from 'fastify';
import { apiErrorSchema } from '../../shared/api-error.js';
import { privateAnswer } from './route-caching.js';

/** The options of a GET of the signed-in user's own data: never cached, and 401 for anyone signed out. */
export function ownDataRead<Schema extends FastifySchema & { response: object }>(schema: Schema) {
  return { config: privateAnswer, schema: { ...schema, response: { ...schema.response, 401: apiErrorSchema } } };
}
