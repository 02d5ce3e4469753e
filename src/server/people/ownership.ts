import type { Kysely } from 'kysely';
import { recordAudit, type AuditEntry } from '../audit/audit-log.js';
import type { Database } from '../db/schema.js';

export class NoSuchAccountError extends Error {
  constructor(email: string) {
    super(`No account has the e-mail address ${email}. Sign up with it first, then run this again.`);
  }
}

/**
 * Hands the site to the account with this address (issue 44): the previous owner becomes an
 * administrator, in one transaction with the audit entry. The one-owner index makes two hand-overs
 * at the same moment fail rather than leave two owners. Answers whether anything changed.
 */
export async function transferOwnership(db: Kysely<Database>, email: string, actor: AuditEntry['actor']): Promise<{ changed: boolean; previous: string | null }> {
  return db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom('user').select(['id', 'email', 'role']).where(({ fn }) => fn('lower', ['email']), '=', email.toLowerCase()).forUpdate().executeTakeFirst();
    if (!target) throw new NoSuchAccountError(email);
    if (target.role === 'owner') return { changed: false, previous: target.email };
    const previous = await trx.updateTable('user').set({ role: 'administrator' }).where('role', '=', 'owner').returning('email').executeTakeFirst();
    await trx.updateTable('user').set({ role: 'owner' }).where('id', '=', target.id).execute();
    await recordAudit(trx, { actor, action: 'ownership.transfer', subject: target.email, before: { owner: previous?.email ?? null, role: target.role }, after: { owner: target.email } });
    return { changed: true, previous: previous?.email ?? null };
  });
}

/** At start-up: `OWNER_EMAIL`'s account, if it exists, is the owner (the command line's hand-over, audit-logged with no actor). */
export async function applyOwnerEmail(db: Kysely<Database>, ownerEmail: string | undefined): Promise<void> {
  if (!ownerEmail) return;
  const exists = await db.selectFrom('user').select('role').where(({ fn }) => fn('lower', ['email']), '=', ownerEmail).executeTakeFirst();
  if (exists && exists.role !== 'owner') await transferOwnership(db, ownerEmail, null);
}
