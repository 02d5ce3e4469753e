import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Our own checks on auth requests before Better Auth sees them (not yet written). */
export function createAuthGuards(_db: Kysely<Database>) {
  return async (_request: FastifyRequest): Promise<void> => {};
}
