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
