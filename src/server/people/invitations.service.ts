import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/role-schema.js';
import { recordAudit } from '../core/audit-log.js';
import type { Database } from '../db/schema.js';
import { removeEarlierWaysIn } from '../core/ways-in.repository.js';

/**
 * The invitation's token was presented for an address that has an account already (issue 56):
 * someone signed up as it by password, proving nothing, or its person did so before accepting.
 * The token proves the mailbox, so its holder gets the account as a password reset would give it,
 * and more: every earlier way in (sessions, password, providers, passkeys, authenticator app) goes,
 * the password chosen on the invitation page is its only one, the address is confirmed, and the
 * invitation's role is given (the owner keeps the seat). One transaction, audit-logged; answers
 * false when the invitation was used or revoked meanwhile.
 */
export async function giveAccountToInvitationHolder(
  db: Kysely<Database>,
  invitation: { id: string; email: string; role: Role },
  userId: string,
  passwordHash: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const usable = await trx
      .updateTable('invitations')
      .set({ accepted_at: new Date(), accepted_user_id: userId })
      .where('id', '=', invitation.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    if (Number(usable.numUpdatedRows) === 0) return false;
    const account = await trx.selectFrom('user').select(['email', 'role']).where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!account) return false;
    const removed = await removeEarlierWaysIn(trx, userId);
    const now = new Date();
    await trx
      .insertInto('account')
      .values({ id: randomBytes(16).toString('base64url'), accountId: userId, providerId: 'credential', userId, password: passwordHash, createdAt: now, updatedAt: now })
      .execute();
    const role = account.role === 'owner' ? 'owner' : invitation.role;
    // The role's trigger ends the account's remembered sessions in every process.
    if (role !== account.role) await trx.updateTable('user').set({ role }).where('id', '=', userId).execute();
    await recordAudit(trx, { actor: { id: userId, email: account.email }, action: 'invitation.accept', subject: account.email, before: { role: account.role }, after: { role, removed } });
    return true;
  });
}
