import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * A session by its token, with the few user fields a request needs: one query, one round trip.
 * A suspended account has no session (its sessions are deleted with the suspension; this also
 * closes the moment between a sign-in's check and the suspension's commit).
 */
export async function findSessionWithUser(db: Kysely<Database>, token: string) {
  return db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.userId')
    .select(['session.id', 'session.createdAt', 'session.expiresAt', 'user.id as userId', 'user.email'])
    .where('session.token', '=', token)
    .where('user.suspended_at', 'is', null)
    .executeTakeFirst();
}
