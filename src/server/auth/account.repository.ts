import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The password hash of the user's e-mail-and-password login, or null when they have none. */
export async function findPasswordHash(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('account')
    .select('password')
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  return row?.password ?? null;
}

/** Whether a moderator has suspended the account (no sign-in until it is lifted). */
export async function isAccountSuspended(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('user').select('suspended_at').where('id', '=', userId).executeTakeFirst();
  return row?.suspended_at != null;
}

/** The profile columns of a user, or undefined when there is no such user. */
export async function findProfile(db: Kysely<Database>, userId: string) {
  return db.selectFrom('user').select(['email', 'handle', 'display_name', 'bio']).where('id', '=', userId).executeTakeFirst();
}

/** Writes the user's whole profile; undefined when there is no such user. A taken handle breaks `user_handle_key`. */
export async function updateProfile(db: Kysely<Database>, userId: string, profile: { handle: string; displayName: string | null; bio: string | null }) {
  return db
    .updateTable('user')
    .set({ handle: profile.handle, display_name: profile.displayName, bio: profile.bio, updatedAt: new Date() })
    .where('id', '=', userId)
    .returning(['email', 'handle', 'display_name', 'bio'])
    .executeTakeFirst();
}
