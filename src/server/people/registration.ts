import { createHash } from 'node:crypto';
import { APIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { messages } from '../../shared/messages.js';
import type { Role } from '../../shared/role-schema.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { SiteSettingsAccess } from '../settings/site-settings.js';
import { consumeInvitation, findUsableInvitation } from './invitations.repository.js';

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

/**
 * Whether a new account may be made for this address, and with which role (issue 44). Every way
 * of creating an account (e-mail sign-up, magic link, e-mail code, a social provider, an accepted
 * invitation) ends in Better Auth's `user.create.before`, which asks this; a refusal throws.
 *
 * - `OWNER_EMAIL`'s address becomes the owner, whatever the registration setting (the previous
 *   owner, if any, becomes an administrator).
 * - Without `OWNER_EMAIL`, the first account of a site becomes the owner (the one-owner index
 *   refuses a second owner made at the same moment).
 * - Anyone else: an invited address gets the invitation's role; otherwise, when registration is
 *   'open', the site's default role; else refused.
 */
export async function roleForNewAccount(deps: RegistrationDeps, email: string): Promise<Role> {
  const address = email.toLowerCase();
  if (deps.config.ownerEmail === address) {
    await deps.db.updateTable('user').set({ role: 'administrator' }).where('role', '=', 'owner').execute();
    return 'owner';
  }
  if (!deps.config.ownerEmail) {
    const owner = await deps.db.selectFrom('user').select('id').where('role', '=', 'owner').executeTakeFirst();
    if (!owner) return 'owner';
  }
  const invitation = await findUsableInvitation(deps.db, address);
  if (invitation) return invitation.role;
  const settings = await deps.siteSettings.get();
  if (settings.registration !== 'open') throw registrationRefused(settings.registration);
  return settings.defaultRole;
}

/** Whether the address may sign up now (asked before e-mail sign-up, so an existing address answers the same as a new one). */
export async function mayRegister(deps: RegistrationDeps, email: string): Promise<true | APIError> {
  const address = email.toLowerCase();
  if (deps.config.ownerEmail === address) return true;
  if (!deps.config.ownerEmail && !(await deps.db.selectFrom('user').select('id').where('role', '=', 'owner').executeTakeFirst())) return true;
  const settings = await deps.siteSettings.get();
  if (settings.registration === 'open') return true;
  if (await findUsableInvitation(deps.db, address)) return true;
  return registrationRefused(settings.registration);
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

/** After the account exists: the invitation that let it in is used up. */
export async function accountCreated(deps: RegistrationDeps, user: { id: string; email: string }): Promise<void> {
  await consumeInvitation(deps.db, user.email, user.id);
}
