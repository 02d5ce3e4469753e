import type { Kysely } from 'kysely';
import { paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import type { SiteNameSource } from '../core/site-settings.js';
import { findUserEmail } from './session.repository.js';

/**
 * A new way into the account, or one taken away, is told to its owner by mail (issue 56): whoever
 * did it with a stolen session is then known to the one person who can undo it.
 */
export type AccountChange = { kind: 'passkey-added'; name: string | null } | { kind: 'two-factor-on' } | { kind: 'two-factor-off' } | { kind: 'backup-codes' };

export interface AccountChangeMailDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl'>;
  /** The site's name as its settings have it now. */
  siteSettings: SiteNameSource;
}

const described = (change: AccountChange, siteName: string): { subject: string; what: string } => {
  switch (change.kind) {
    case 'passkey-added':
      return {
        subject: `A passkey was added to your ${siteName} account`,
        what: `A passkey${change.name ? ` named "${change.name}"` : ''} was added to your account. It can sign in to your account on its own.`,
      };
    case 'two-factor-on':
      return { subject: `Two-factor authentication was turned on for your ${siteName} account`, what: 'Two-factor authentication with an authenticator app was turned on for your account.' };
    case 'two-factor-off':
      return { subject: `Two-factor authentication was turned off for your ${siteName} account`, what: 'Two-factor authentication was turned off for your account: a password alone signs in again.' };
    case 'backup-codes':
      return { subject: `New backup codes were made for your ${siteName} account`, what: 'New backup codes were made for your account; the old ones no longer work.' };
  }
};

/** Queues the mail (a job of the durable queue, as every mail). */
export async function mailAccountChange(deps: AccountChangeMailDeps, userId: string, change: AccountChange): Promise<void> {
  const user = await findUserEmail(deps.db, userId);
  if (!user) return;
  const { siteName } = await deps.siteSettings.get();
  const { subject, what } = described(change, siteName);
  await deps.mailer.send({
    to: user.email,
    subject,
    text:
      `${what}\n\nWhen: ${new Date().toUTCString()}\n\n` +
      `If it was you, there is nothing to do.\n\n` +
      `If it wasn't you, someone is using your account: reset your password now (${deps.config.publicUrl}/auth?view=forgotten_password), ` +
      `then, in Settings (${deps.config.publicUrl}${paths.settings()}), remove the passkeys you do not know, check two-factor authentication and sign out the sessions you do not recognise.\n`,
  });
}
