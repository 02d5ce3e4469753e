import { sql, type Kysely } from 'kysely';
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
    .select(['session.id', 'session.createdAt', 'session.expiresAt', 'user.id as userId', 'user.email', 'user.role'])
    .where('session.token', '=', token)
    .where('user.suspended_at', 'is', null)
    .executeTakeFirst();
}

/** The account's sessions that have not expired, the last used first. */
export async function selectAccountSessions(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('session')
    .select(['id', 'createdAt', 'last_seen_at', 'ipAddress', 'userAgent'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', new Date())
    .orderBy(sql`coalesce(last_seen_at, "createdAt")`, 'desc')
    .execute();
}

/** Ends one of the account's sessions (its row's deletion tells every process, migration 2026-11-23-10); false if it has none by that id. */
export async function deleteAccountSession(db: Kysely<Database>, userId: string, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom('session').where('id', '=', sessionId).where('userId', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ends every session of the account but `keepId`; answers how many. */
export async function deleteOtherSessions(db: Kysely<Database>, userId: string, keepId: string): Promise<number> {
  const result = await db.deleteFrom('session').where('userId', '=', userId).where('id', '!=', keepId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Marks a session as used now. */
export async function touchSession(db: Kysely<Database>, sessionId: string): Promise<void> {
  await db.updateTable('session').set({ last_seen_at: new Date() }).where('id', '=', sessionId).execute();
}

/**
 * Lists `browser` among the account's known browsers. `isNew`: it was not there; `first`: the
 * account had none before (its first sign-in, or its first since browsers were kept).
 */
export async function noteKnownBrowser(db: Kysely<Database>, userId: string, browser: string): Promise<{ isNew: boolean; first: boolean }> {
  const before = await db.selectFrom('known_browsers').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  const inserted = await db.insertInto('known_browsers').values({ user_id: userId, browser }).onConflict((conflict) => conflict.doNothing()).executeTakeFirst();
  return { isNew: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0, first: Number(before.n) === 0 };
}

export function findSessionOwner(db: Kysely<Database>, sessionId: string) {
  return db.selectFrom('session').select('userId').where('id', '=', sessionId).executeTakeFirst();
}

export function findUserEmail(db: Kysely<Database>, userId: string) {
  return db.selectFrom('user').select('email').where('id', '=', userId).executeTakeFirst();
}
