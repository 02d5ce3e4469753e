import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { APIError } from 'better-auth/api';
import { sql, type Kysely } from 'kysely';
import { messages } from '../../shared/messages.js';
import type { Role } from '../../shared/role-schema.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { SiteSettingsAccess } from './site-settings.js';
import { consumeInvitation, findUsableInvitation } from './invitations.repository.js';
import { seatFirstAccount } from './ownership.js';

export interface RegistrationDeps {
  db: Kysely<Database>;
  config: Config;
  siteSettings: SiteSettingsAccess;
}

/** The codes a refused sign-up answers with; the page shows the message (`shared/messages.ts`). */
export const REGISTRATION_CLOSED = 'REGISTRATION_CLOSED';
export const REGISTRATION_BY_INVITATION = 'REGISTRATION_BY_INVITATION';

/** The error every way of creating an account answers a refused address with. */
export function registrationRefused(registration: 'invitation' | 'closed'): APIError {
  return registration === 'closed'
    ? APIError.from('FORBIDDEN', { message: messages.registrationClosed, code: REGISTRATION_CLOSED })
    : APIError.from('FORBIDDEN', { message: messages.registrationByInvitation, code: REGISTRATION_BY_INVITATION });
}

/** The ways of making an account whose mailed token proves the address at that moment: a magic link, an e-mail code. */
const ADDRESS_PROVING_SIGN_UPS = new Set(['/magic-link/verify', '/sign-in/email-otp']);
/** The sign-ins that prove the address (a mailed link or code), after which `OWNER_EMAIL` takes the seat. */
export const ADDRESS_PROVING_SIGN_INS = new Set([...ADDRESS_PROVING_SIGN_UPS, '/email-otp/verify-email']);

/** The invitation whose token the account being made presented (`invitations.routes.ts`). */
interface PresentedInvitation {
  id: string;
  email: string;
  role: Role;
}
const presented = new AsyncLocalStorage<PresentedInvitation>();

/** Makes the account inside `make` as the holder of this invitation's token: its role, its address proven. */
export function asInvitationHolder<T>(invitation: PresentedInvitation, make: () => Promise<T>): Promise<T> {
  return presented.run(invitation, make);
}

function presentedFor(address: string): PresentedInvitation | undefined {
  const invitation = presented.getStore();
  return invitation && invitation.email.toLowerCase() === address ? invitation : undefined;
}

/** No account holds the seat and none ever took it (the audit log keeps each taking and hand-over). */
async function siteNeverOwned(db: Kysely<Database>): Promise<boolean> {
  const owned = await db
    .selectFrom('user')
    .select('id')
    .where('role', '=', 'owner')
    .union(db.selectFrom('audit_log').select(sql<string>`'log'`.as('id')).where('action', 'like', 'ownership.%'))
    .executeTakeFirst();
  return !owned;
}

/**
 * Whether a new account may be made for this address, and with which role (issues 44, 56). Every
 * way of creating an account ends in Better Auth's `user.create.before`, which asks this; the
 * e-mail sign-up and the magic link ask before, so a refusal is said in words.
 *
 * - An invitation's role goes to whoever presents its token (the invitation page); a magic link
 *   or e-mail code sent to the invited address proves the same mailbox, so it counts too. A plain
 *   sign-up as an invited address is like any other.
 * - `OWNER_EMAIL` signing up by magic link or e-mail code is let in whatever the registration
 *   setting: it takes the seat once signed in (`ownership.ts`). By password it is like any other.
 * - Without `OWNER_EMAIL`, anyone may sign up on a site that has never had an owner: the first
 *   of them takes the seat once made (`seatFirstAccount`).
 * - Anyone else: when registration is 'open', the site's default role; else refused.
 */
async function admission(deps: RegistrationDeps, address: string, provesAddress: boolean): Promise<Role | APIError> {
  const invitation = presentedFor(address);
  if (invitation) return invitation.role;
  const settings = await deps.siteSettings.get();
  if (provesAddress) {
    if (deps.config.ownerEmail === address) return settings.defaultRole;
    const invited = await findUsableInvitation(deps.db, address);
    if (invited) return invited.role;
  }
  if (!deps.config.ownerEmail && (await siteNeverOwned(deps.db))) return settings.defaultRole;
  if (settings.registration !== 'open') return registrationRefused(settings.registration);
  return settings.defaultRole;
}

/** The new account's role, and whether its address is proven already (an invitation's token); a refusal throws. */
export async function termsForNewAccount(deps: RegistrationDeps, email: string, path: string | undefined): Promise<{ role: Role; emailVerified?: true }> {
  const address = email.toLowerCase();
  const role = await admission(deps, address, path !== undefined && ADDRESS_PROVING_SIGN_UPS.has(path));
  if (role instanceof APIError) throw role;
  return presentedFor(address) ? { role, emailVerified: true } : { role };
}

/** Whether the address may sign up now, this way (asked before e-mail sign-up, so an existing address answers the same as a new one). */
export async function mayRegister(deps: RegistrationDeps, email: string, path: string): Promise<true | APIError> {
  const role = await admission(deps, email.toLowerCase(), ADDRESS_PROVING_SIGN_UPS.has(path));
  return role instanceof APIError ? role : true;
}

/**
 * The address a magic link would sign up, if it has no account yet (else null): Better Auth keeps
 * the link as `magic-link:<SHA-256 of the token, base64url>` with the address in its JSON value.
 */
export async function newAddressOfMagicLink(db: Kysely<Database>, token: string): Promise<string | null> {
  if (!token) return null;
  const identifier = `magic-link:${createHash('sha256').update(token).digest('base64url')}`;
  const row = await db.selectFrom('verification').select('value').where('identifier', '=', identifier).executeTakeFirst();
  let email: unknown;
  try {
    email = (JSON.parse(row?.value ?? 'null') as { email?: unknown } | null)?.email;
  } catch {
    return null;
  }
  if (typeof email !== 'string') return null;
  const exists = await db.selectFrom('user').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();
  return exists ? null : email;
}

/**
 * After the account exists: the invitation that let it in is used up (the presented one, or the
 * address's own when a link or code proved it), and on a site never owned the first account takes
 * the seat.
 */
export async function accountCreated(deps: RegistrationDeps, user: { id: string; email: string }, path: string | undefined): Promise<void> {
  const invitation = presentedFor(user.email.toLowerCase());
  if (invitation) await consumeInvitation(deps.db, { id: invitation.id }, user.id);
  else if (path !== undefined && ADDRESS_PROVING_SIGN_UPS.has(path)) await consumeInvitation(deps.db, { email: user.email }, user.id);
  if (!deps.config.ownerEmail) await seatFirstAccount(deps.db, user);
}
