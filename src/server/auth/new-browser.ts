import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import { signedToken, valueOfSignedToken } from '../core/signed-token.js';
import type { Database } from '../db/schema.js';
import { badRequest } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { browserOf, describeUserAgent, maskAddress } from './account-sessions.js';
import { deleteAccountSession, findUserEmail, noteKnownBrowser } from './session.repository.js';
import type { SiteNameSource } from '../core/site-settings.js';

/**
 * A sign-in from a browser the account has not used before (issue 45): the account's owner gets a
 * mail (a job of the durable queue, as every mail) naming the browser, the address (its last part
 * dropped) and the time, with a 'This wasn't me' link. The link opens a page whose button (never
 * the GET: link scanners open every link) signs that session out and mails a link to choose a
 * new password.
 */
const PURPOSE = 'not-me';

export interface NewBrowserDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'authSecret'>;
  log: FastifyBaseLogger;
  /** The site's name as its settings have it now. */
  siteSettings: SiteNameSource;
}

export const notMeToken = (sessionId: string, userId: string, secret: string) => signedToken(PURPOSE, `${sessionId}:${userId}`, secret);

/** Called for every new session (Better Auth's hook): every way of signing in ends in one. */
export async function noteSignIn(deps: NewBrowserDeps, session: { id: string; userId: string; userAgent?: string | null; ipAddress?: string | null }): Promise<void> {
  const { isNew, first } = await noteKnownBrowser(deps.db, session.userId, browserOf(session.userAgent ?? null));
  // The account's first browser (its sign-up, or its first sign-in since browsers were kept) is news to no one.
  if (!isNew || first) return;
  const user = await findUserEmail(deps.db, session.userId);
  if (!user) return;
  const { publicUrl } = deps.config;
  const { siteName } = await deps.siteSettings.get();
  const link = `${publicUrl}${paths.notMe(notMeToken(session.id, session.userId, deps.config.authSecret))}`;
  const address = maskAddress(session.ipAddress ?? null);
  await deps.mailer.send({
    to: user.email,
    subject: `A new sign-in to your ${siteName} account`,
    text:
      `Your account was signed in from a browser it has not used before:\n\n` +
      `${describeUserAgent(session.userAgent ?? null)}${address ? `, from ${address}` : ''}, at ${new Date().toUTCString()}\n\n` +
      `If it was you, there is nothing to do.\n\n` +
      `If it wasn't you, open this link and press 'This wasn't me': that browser is signed out, and we send you a link to choose a new password.\n${link}\n`,
  });
}

export const NOT_ME_SPENT = 'That browser is signed out already (this link works once). To choose a new password, use “Forgot your password?” on the sign-in page, or change it in Settings.';

/**
 * The 'This wasn't me' button: signs the session out; answers the account's e-mail, for the new
 * password's link. The token works once: it names a session, and only the press that ends that
 * session goes on (a second press, or one after the session ended anyway, is a 400 and mails nothing).
 */
export async function signOutNotMe(deps: Pick<NewBrowserDeps, 'db' | 'config'>, token: string): Promise<{ email: string; userId: string }> {
  const value = valueOfSignedToken(PURPOSE, token, deps.config.authSecret);
  const [sessionId, userId] = value?.split(':') ?? [];
  const user = userId ? await findUserEmail(deps.db, userId) : undefined;
  if (!sessionId || !userId || !user) throw badRequest('This link is not valid. Open it from the e-mail again, or change your password in Settings.', 'INVALID_LINK');
  // One statement decides: of two presses at once, only the one whose delete found the row goes on.
  if (!(await deleteAccountSession(deps.db, userId, sessionId))) throw badRequest(NOT_ME_SPENT, 'LINK_USED');
  return { email: user.email, userId };
}
