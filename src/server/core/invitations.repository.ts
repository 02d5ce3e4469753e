import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Only this is stored of a mailed token (migration 2026-11-29-04). */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The address's pending invitation that still works: not used, not revoked, not expired. */
export async function findUsableInvitation(db: Kysely<Database>, email: string, now = new Date()) {
  return db
    .selectFrom('invitations')
    .select(['id', 'email', 'role'])
    .where(({ fn }) => fn('lower', ['email']), '=', email.toLowerCase())
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The invitation a token names, if it still works. */
export async function findUsableInvitationByToken(db: Kysely<Database>, token: string, now = new Date()) {
  return db
    .selectFrom('invitations')
    .select(['id', 'email', 'role'])
    .where('token_hash', '=', hashInvitationToken(token))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks an invitation (this one, or the address's pending one) used by the account just made with it; once only. */
export async function consumeInvitation(db: Kysely<Database>, which: { id: string } | { email: string }, userId: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ accepted_at: new Date(), accepted_user_id: userId })
    .where((eb) => ('id' in which ? eb('id', '=', which.id) : eb(eb.fn('lower', ['email']), '=', which.email.toLowerCase())))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
