import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { INVITATION_TTL_DAYS, PEOPLE_PAGE_SIZE, type Invitation, type InvitationInput, type PeoplePage, type PersonDeletion } from '../../shared/people-schema.js';
import { messages } from '../../shared/messages.js';
import { ROLE_LABELS, type Role } from '../../shared/role-schema.js';
import { recordAudit } from '../core/audit-log.js';
import type { Config } from '../config.js';
import { deleteUserAndContent } from '../core/account-deletion.repository.js';
import { blogStatesBefore, recordBlogChanges } from '../core/blog-events.js';
import type { SessionUser } from '../core/session-user.js';
import type { SuspendAccount } from '../core/suspend-account.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { parseId } from '../http/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { readSiteSettings } from '../core/site-settings.js';
import { hashInvitationToken } from '../core/invitations.repository.js';
import { findPersonByEmail, lockPerson, moveBlogs, selectPendingInvitations, selectPeople, setRole } from './people.repository.js';

export interface PeopleDeps {
  db: Kysely<Database>;
  config: Config;
  mailer: Mailer;
}

const noSuchAccount = () => notFound('This account does not exist.');
/** Better Auth's ids are its own strings, not UUIDs: anything else is answered as a missing account. */
function accountId(raw: string): string {
  if (raw.length === 0 || raw.length > 200) throw noSuchAccount();
  return raw;
}
const actorOf = (user: SessionUser) => ({ id: user.id, email: user.email });

export async function listPeople(deps: PeopleDeps, query: { search?: string; page: number }): Promise<PeoplePage> {
  const rows = await selectPeople(deps.db, { search: query.search || undefined, offset: (query.page - 1) * PEOPLE_PAGE_SIZE, limit: PEOPLE_PAGE_SIZE + 1 });
  return {
    items: rows.slice(0, PEOPLE_PAGE_SIZE).map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      joinedAt: new Date(row.createdAt).toISOString(),
      blogCount: Number(row.blog_count ?? 0),
      lastSeenAt: row.last_seen_at ? new Date(row.last_seen_at as Date | string).toISOString() : null,
      suspended: row.suspended_at !== null,
    })),
    page: query.page,
    hasMore: rows.length > PEOPLE_PAGE_SIZE,
  };
}

/**
 * The rules of who changes whom (issue 44): the owner's account is changed only by handing over
 * ownership; an administrator's, and the making of one, only by the owner.
 */
function assertMayManage(actor: SessionUser, target: { role: Role }, newRole?: Role): void {
  if (target.role === 'owner') throw forbidden(messages.ownerChangedByHandOverOnly);
  if ((target.role === 'administrator' || newRole === 'administrator') && actor.role !== 'owner') {
    throw forbidden('Only the owner changes an administrator.');
  }
}

export async function changeRole(deps: PeopleDeps, actor: SessionUser, rawId: string, role: Exclude<Role, 'owner'>): Promise<void> {
  const id = accountId(rawId);
  await deps.db.transaction().execute(async (trx) => {
    const target = await lockPerson(trx, id);
    if (!target) throw noSuchAccount();
    assertMayManage(actor, target, role);
    if (target.role === role) return;
    // The role's trigger (migration 2026-11-29-01) ends the account's remembered sessions everywhere.
    await setRole(trx, id, role);
    await recordAudit(trx, { actor: actorOf(actor), action: 'role.change', subject: target.email, before: { role: target.role }, after: { role } });
  });
}

/** Suspending goes through moderation's own action, so its events fire; the audit entry is written in its transaction. */
export type { SuspendAccount } from '../core/suspend-account.js';

export async function setSuspension(deps: PeopleDeps & { suspendAccount: SuspendAccount }, actor: SessionUser, rawId: string, input: { suspended: boolean; reason?: string }): Promise<void> {
  const id = accountId(rawId);
  const target = await deps.db.selectFrom('user').select(['id', 'email', 'role', 'suspended_at']).where('id', '=', id).executeTakeFirst();
  if (!target) throw noSuchAccount();
  assertMayManage(actor, target);
  await deps.suspendAccount(actor, { userId: id, suspend: input.suspended, reason: input.reason }, (trx) =>
    recordAudit(trx, {
      actor: actorOf(actor),
      action: input.suspended ? 'account.suspend' : 'account.unsuspend',
      subject: target.email,
      before: { suspended: target.suspended_at !== null },
      after: { suspended: input.suspended, reason: input.reason ?? null },
    }),
  );
}

/**
 * Deletes an account through the same path as the account's own deletion (`core/account-deletion`),
 * its blogs removed with it or first given to another account (each a recorded blog change).
 * Answers the image keys to remove from storage once committed.
 */
export async function deletePerson(deps: PeopleDeps, actor: SessionUser, rawId: string, input: PersonDeletion): Promise<string[]> {
  const id = accountId(rawId);
  if (id === actor.id) throw badRequest('Delete your own account from Settings.', 'OWN_ACCOUNT');
  return deps.db.transaction().execute(async (trx) => {
    const target = await lockPerson(trx, id);
    if (!target) throw noSuchAccount();
    assertMayManage(actor, target);
    let heir: string | null = null;
    if (input.blogs === 'transfer') {
      const to = await findPersonByEmail(trx, input.transferTo);
      if (!to || to.id === id) throw badRequest('No other account has that e-mail address.', 'NO_SUCH_HEIR');
      const before = await blogStatesBefore(trx, { authorId: id });
      await moveBlogs(trx, id, to);
      // The blogs now show another author (and follow that author's suspension): a change readers see.
      await recordBlogChanges(trx, { before, origin: 'account-deletion' });
      heir = to.email;
    }
    const { deleted, imageKeys } = await deleteUserAndContent(trx, id);
    if (!deleted) throw noSuchAccount();
    await recordAudit(trx, { actor: actorOf(actor), action: 'account.delete', subject: target.email, before: { role: target.role }, after: { blogs: input.blogs, transferTo: heir } });
    return imageKeys;
  });
}

export async function listInvitations(deps: PeopleDeps): Promise<Invitation[]> {
  return (await selectPendingInvitations(deps.db)).map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  }));
}

/**
 * Invites an address: a random token, mailed as a link to the invitation page (whose button alone
 * spends it), kept only as its hash. A new invitation replaces a pending one for the same address.
 */
export async function invite(deps: PeopleDeps, actor: SessionUser, input: InvitationInput): Promise<Invitation> {
  if (input.role === 'administrator' && actor.role !== 'owner') throw forbidden('Only the owner changes an administrator.');
  if (await findPersonByEmail(deps.db, input.email)) throw conflict('This address already has an account.', 'ACCOUNT_EXISTS');
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000);
  const row = await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('invitations')
      .set({ revoked_at: new Date() })
      .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email))
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    const created = await trx
      .insertInto('invitations')
      .values({ email: input.email, role: input.role, token_hash: hashInvitationToken(token), invited_by: actor.id, expires_at: expiresAt })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, { actor: actorOf(actor), action: 'invitation.create', subject: input.email, after: { role: input.role, expiresAt: expiresAt.toISOString() } });
    return created;
  });
  const link = `${deps.config.publicUrl}/auth?view=accept_invitation&token=${encodeURIComponent(token)}`;
  // The settings' name, read where they are kept (`SITE_NAME` only seeds a fresh site).
  const { siteName } = await readSiteSettings(deps.db, deps.config);
  await deps.mailer.send({
    to: input.email,
    subject: 'You are invited',
    text: `${actor.email} invites you to join ${siteName} as ${ROLE_LABELS[input.role]}.\n\nOpen this link and press the button on the page to choose your password (it works once, for ${INVITATION_TTL_DAYS} days):\n${link}\n\nIf you do not want to join, ignore this e-mail.\n`,
  });
  return { id: row.id, email: input.email, role: input.role, createdAt: new Date(row.created_at).toISOString(), expiresAt: expiresAt.toISOString() };
}

export async function revokeInvitation(deps: PeopleDeps, actor: SessionUser, rawId: string): Promise<void> {
  const id = parseId(rawId, () => notFound('This invitation does not exist.'));
  await deps.db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('invitations')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returning(['email', 'role'])
      .executeTakeFirst();
    if (!revoked) throw notFound('This invitation is not pending any more.');
    await recordAudit(trx, { actor: actorOf(actor), action: 'invitation.revoke', subject: revoked.email, before: { role: revoked.role } });
  });
}
