import type { MailFrom } from '../config.js';
import type { Mailer } from './mailer.js';

/**
 * Gives each message its From as it is made: MAIL_FROM's address, named by MAIL_FROM's own name
 * when the operator wrote one, else by the site's saved name at that moment (`SITE_NAME` only
 * seeds it). A message that already has one (queued before, sent now) keeps it.
 */
export function fromTheSite(mailer: Mailer, from: MailFrom, siteName: () => Promise<string>): Mailer {
  return {
    async send(message) {
      if (message.from) return mailer.send(message);
      await mailer.send({ ...message, from: { name: from.name ?? (await siteName()), address: from.address } });
    },
    close: () => mailer.close(),
  };
}
