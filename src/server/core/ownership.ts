import { sql, type Kysely, type Transaction } from 'kysely';
import { recordAudit, type AuditEntry } from './audit-log.js';
import { brokenConstraint } from '../db/database-errors.js';
import type { Database } from '../db/schema.js';
import { removeEarlierWaysIn } from './ways-in.repository.js';

export class NoSuchAccountError extends Error {
  constructor(email: string) {
    super(`No account has the e-mail address ${email}. Sign up with it first, then run this again.`);
  }
}

/** The index that keeps the owner to one account (migration 2026-11-29-01). */
const ONE_OWNER_INDEX = 'user_one_owner';

type Target = { id: string; email: string; role: string };

/** The hand-over itself, in the caller's transaction: the previous owner becomes an administrator, with its audit entry. */
async function handOverIn(trx: Transaction<Database>, target: Target, actor: AuditEntry['actor'], after: Record<string, unknown> = {}): Promise<string | null> {
  const previous = await trx.updateTable('user').set({ role: 'administrator' }).where('role', '=', 'owner').returning('email').executeTakeFirst();
  await trx.updateTable('user').set({ role: 'owner' }).where('id', '=', target.id).execute();
  await recordAudit(trx, { actor, action: 'ownership.transfer', subject: target.email, before: { owner: previous?.email ?? null, role: target.role }, after: { owner: target.email, ...after } });
  return previous?.email ?? null;
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
    return { changed: true, previous: await handOverIn(trx, target, actor) };
  });
}

/**
 * `OWNER_EMAIL` takes the seat only for an address proven at this moment (issue 56): a confirmation
 * link, a magic link or an e-mail code just reached it. Whatever let anyone into the account before
 * that proof (a password, passkey, authenticator app, provider or session of whoever signed up as
 * the address) is taken away first; only the session the proof made (`keepSessionToken`) stays.
 * Answers whether the seat moved.
 */
export async function seatProvenOwnerEmail(db: Kysely<Database>, ownerEmail: string | undefined, userId: string, keepSessionToken?: string): Promise<boolean> {
  if (!ownerEmail) return false;
  return db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom('user').select(['id', 'email', 'role']).where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!target || target.email.toLowerCase() !== ownerEmail || target.role === 'owner') return false;
    const removed = await removeEarlierWaysIn(trx, target.id, keepSessionToken);
    await handOverIn(trx, target, null, { by: 'OWNER_EMAIL', removed });
    return true;
  });
}

/**
 * At start-up: `OWNER_EMAIL`'s account, if it exists and its address has been confirmed, is the
 * owner (the command line's hand-over, audit-logged with no actor). Who set its password or passkeys
 * is not known here, so they go (`seatProvenOwnerEmail`): its person signs in by link or code. An
 * unconfirmed account waits for its confirmation. Answers what happened, for the log.
 */
export async function applyOwnerEmail(db: Kysely<Database>, ownerEmail: string | undefined): Promise<'none' | 'owner' | 'seated' | 'unconfirmed'> {
  if (!ownerEmail) return 'none';
  const account = await db.selectFrom('user').select(['id', 'role', 'emailVerified']).where(({ fn }) => fn('lower', ['email']), '=', ownerEmail).executeTakeFirst();
  if (!account) return 'none';
  if (account.role === 'owner') return 'owner';
  if (!account.emailVerified) return 'unconfirmed';
  return (await seatProvenOwnerEmail(db, ownerEmail, account.id)) ? 'seated' : 'owner';
}

/**
 * The first account of a site that has never had an owner takes the seat (issue 56), after it is
 * made. "Never had one": no account holds it and the audit log has no `ownership.*` entry (the
 * seat's first taking is written there), so a site whose owner row is gone does not give it to the
 * next sign-up. Of accounts made at the same moment, the one-owner index lets one through.
 */
export async function seatFirstAccount(db: Kysely<Database>, user: { id: string; email: string }): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      const seated = await trx
        .updateTable('user')
        .set({ role: 'owner' })
        .where('id', '=', user.id)
        .where((eb) =>
          eb.and([
            eb.not(eb.exists(eb.selectFrom('user as held').select('held.id').where('held.role', '=', 'owner'))),
            eb.not(eb.exists(eb.selectFrom('audit_log').select('audit_log.id').where('audit_log.action', 'like', 'ownership.%'))),
          ]),
        )
        .returning('email')
        .executeTakeFirst();
      if (!seated) return false;
      await recordAudit(trx, { actor: { id: user.id, email: user.email }, action: 'ownership.claim', subject: user.email, after: { owner: user.email } });
      return true;
    });
  } catch (err) {
    if (brokenConstraint(err, 'unique') === ONE_OWNER_INDEX) return false;
    throw err;
  }
}

/**
 * Whether the site waits for its first account, which will take the seat (`seatFirstAccount`): no
 * `OWNER_EMAIL`, no account at all, and no owner ever (the audit log's `ownership.*`). Asked for
 * every page while true; once false it stays false in this process, asked no more.
 */
export function firstAccountAwaited(db: Kysely<Database>, ownerEmail: string | undefined): () => Promise<boolean> {
  let over = ownerEmail !== undefined;
  return async () => {
    if (over) return false;
    const anyone = await db
      .selectFrom('user')
      .select('id')
      .union(db.selectFrom('audit_log').select(sql<string>`'log'`.as('id')).where('action', 'like', 'ownership.%'))
      .limit(1)
      .executeTakeFirst();
    over = anyone !== undefined;
    return !over;
  };
}
