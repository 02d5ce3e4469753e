import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A session by its token, with the few user fields a request needs: one query, one round trip. */
export async function findSessionWithUser(db: Kysely<Database>, token: string) {
  return db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.userId')
    .select(['session.id', 'session.createdAt', 'session.expiresAt', 'user.id as userId', 'user.email'])
    .where('session.token', '=', token)
    .executeTakeFirst();
}
