import type { Kysely } from 'kysely';
import { messages } from '../../shared/messages.js';
import { paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import type { SessionUser } from '../core/session-user.js';
import type { Database } from '../db/schema.js';
import { forbidden } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { may } from '../core/access.js';
import type { SiteSettingsAccess } from '../core/site-settings.js';
import type { BlogWriter } from './blogs.service.js';
import { selectReviewerEmails } from './blogs.repository.js';

/**
 * What the signed-in account's role lets it do with blogs (issue 44), one check per action
 * (`core/roles.ts`): a reader writes nothing; a contributor writes drafts and submits them;
 * an author publishes their own (or submits, when the site reviews new blogs); an editor changes
 * anyone's; an administrator or the owner also deletes anyone's.
 */
export async function blogWriterOf(deps: { config: Config; siteSettings: SiteSettingsAccess }, user: SessionUser): Promise<BlogWriter> {
  if (!may(deps.config, user, { blog: 'draft' })) throw forbidden(messages.readersCannotWrite);
  const anyBlog = may(deps.config, user, { blog: 'editAny' });
  const publishing = !may(deps.config, user, { blog: 'publish' }) ? 'refuse' : !anyBlog && (await deps.siteSettings.get()).reviewNewBlogs ? 'review' : 'publish';
  return { id: user.id, publishing, anyBlog, deleteAny: may(deps.config, user, { blog: 'deleteAny' }) };
}

/** Deleting asks only whose blog it is: an author deletes their own (a reader has none), an administrator anyone's. */
export function deleteWriterOf(deps: { config: Config }, user: SessionUser): BlogWriter {
  const deleteAny = may(deps.config, user, { blog: 'deleteAny' });
  return { id: user.id, publishing: 'refuse', anyBlog: deleteAny, deleteAny };
}

/** Whether the account may submit its draft for review: contributors, and authors when the site reviews new blogs. */
export async function maySubmit(deps: { config: Config; siteSettings: SiteSettingsAccess }, user: SessionUser): Promise<boolean> {
  if (may(deps.config, user, { blog: 'submit' })) return true;
  return may(deps.config, user, { blog: 'draft' }) && (await deps.siteSettings.get()).reviewNewBlogs;
}

/** Tells every reviewer (owner, administrators, editors, `MODERATOR_EMAILS`) through the queued mailer. */
export async function mailReviewers(deps: { db: Kysely<Database>; config: Config; mailer: Mailer }, blog: { id: string; title: string }, author: string): Promise<void> {
  const reviewers = await selectReviewerEmails(deps.db, deps.config.moderatorEmails);
  const link = `${deps.config.publicUrl}${paths.edit(blog.id)}`;
  for (const to of reviewers) {
    await deps.mailer.send({
      to,
      subject: 'A draft waits for your review',
      text: `${author} submitted a draft for review: ${blog.title || '(untitled)'}\n\nRead it, edit it and publish it here:\n${link}\n`,
    });
  }
}
