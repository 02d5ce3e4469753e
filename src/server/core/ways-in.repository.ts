import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** What `removeEarlierWaysIn` took away, for the audit entry. */
export interface RemovedWaysIn {
  sessions: number;
  logins: number;
  passkeys: number;
  authenticatorApp: boolean;
}

/**
 * Takes every way into an account away (issue 56): its sessions (but `keepSessionToken`, the one the
 * proof just made), its password and linked providers, its passkeys and its authenticator app.
 * Used when someone proves the address (a mailed token) and the account gains something by it: a
 * password or passkey set before that proof may be a stranger's, who signed up as the address. The
 * role's trigger, or the caller, ends the remembered sessions in every process.
 */
export async function removeEarlierWaysIn(trx: Transaction<Database>, userId: string, keepSessionToken?: string): Promise<RemovedWaysIn> {
  let sessions = trx.deleteFrom('session').where('userId', '=', userId);
  if (keepSessionToken) sessions = sessions.where('token', '!=', keepSessionToken);
  const endedSessions = await sessions.executeTakeFirst();
  const logins = await trx.deleteFrom('account').where('userId', '=', userId).executeTakeFirst();
  const passkeys = await trx.deleteFrom('passkey').where('userId', '=', userId).executeTakeFirst();
  const apps = await trx.deleteFrom('twoFactor').where('userId', '=', userId).executeTakeFirst();
  await trx.updateTable('user').set({ twoFactorEnabled: false, emailVerified: true, updatedAt: new Date() }).where('id', '=', userId).execute();
  return {
    sessions: Number(endedSessions.numDeletedRows),
    logins: Number(logins.numDeletedRows),
    passkeys: Number(passkeys.numDeletedRows),
    authenticatorApp: Number(apps.numDeletedRows) > 0,
  };
}
