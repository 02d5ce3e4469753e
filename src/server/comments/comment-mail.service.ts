import type { FastifyBaseLogger } from 'fastify';
import { publicAuthorName } from '../../shared/author-name.js';
import type { Kysely } from 'kysely';
import { paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { JobQueue, NewJob } from '../queue/job-queue.js';
import { escapeHtmlText, outgoingText } from '../markdown/outgoing-text.js';
import { renderCommentBody } from '../core/comment-body.js';
import { claimCommentMailSlot, findCommentMailFacts, isCommentMailEnabled, saveCommentMailSetting } from './comment-mail.repository.js';
import { unsubscribeToken, userOfUnsubscribeToken } from './unsubscribe-token.js';
import type { SiteNameSource } from '../core/site-settings.js';

/** At most one mail per blog per person in this window, however many comments arrive. */
export const COMMENT_MAIL_WINDOW_SECONDS = 60 * 60;
/** A long comment is cut in the mail; the link leads to the whole of it. */
const QUOTED_CHARACTERS = 1_000;

export interface CommentMailDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'authSecret'>;
  /** The site's name in the mail, as its settings have it now. */
  siteSettings: SiteNameSource;
  log: FastifyBaseLogger;
}

interface Recipient {
  userId: string;
  email: string;
  /** `comment`: on their blog; `reply`: to their comment (which wins when both are true). */
  kind: 'comment' | 'reply';
}

/**
 * Tells the blog's author about a new comment on it, and a commenter about a reply to them; never
 * anyone about their own comment, nobody who turned these mails off, and nobody twice about the
 * same blog within the window. Runs as a job once the comment has committed; one failed
 * mail does not stop the other.
 */
export const COMMENT_MAIL_JOB = 'comment-mail';

export const commentMailJob = (commentId: string): NewJob => ({ kind: COMMENT_MAIL_JOB, key: `${COMMENT_MAIL_JOB}:${commentId}`, payload: { commentId } });

/** The job a new comment queues in its own transaction: a slow or failing mail server neither delays nor fails the comment. */
export function registerCommentMailJob(queue: JobQueue, deps: CommentMailDeps): void {
  queue.register<{ commentId: string }>({
    kind: COMMENT_MAIL_JOB,
    run: (job, { log }) => mailAboutComment({ ...deps, log }, job.payload.commentId),
  });
}

export async function mailAboutComment(deps: CommentMailDeps, commentId: string): Promise<void> {
  const facts = await findCommentMailFacts(deps.db, commentId);
  if (!facts) return;
  const recipients: Recipient[] = [];
  if (facts.parent_author_id && facts.parent_author_email && facts.parent_author_id !== facts.commenter_id) {
    recipients.push({ userId: facts.parent_author_id, email: facts.parent_author_email, kind: 'reply' });
  }
  if (facts.blog_owner_id !== facts.commenter_id && facts.blog_owner_id !== facts.parent_author_id) {
    recipients.push({ userId: facts.blog_owner_id, email: facts.blog_owner_email, kind: 'comment' });
  }
  for (const recipient of recipients) {
    try {
      if (!(await isCommentMailEnabled(deps.db, recipient.userId))) continue;
      if (!(await claimCommentMailSlot(deps.db, recipient.userId, facts.blog_id, COMMENT_MAIL_WINDOW_SECONDS))) continue;
      const { siteName, showAuthorsBy } = await deps.siteSettings.get();
      // The commenter as the site's 'Show authors by' names them (issue 58).
      const commenter = publicAuthorName(showAuthorsBy, { email: facts.commenter_email, displayName: facts.commenter_display_name, handle: facts.commenter_handle });
      await deps.mailer.send(composeMail(deps, siteName, recipient, { ...facts, commenter }));
    } catch (err) {
      deps.log.error({ err, commentId, recipient: recipient.userId }, 'could not send the e-mail about a comment');
    }
  }
}

function composeMail(
  deps: CommentMailDeps,
  siteName: string,
  recipient: Recipient,
  facts: { body: string; commenter: string; blog_id: string; blog_title: string; blog_slug: string },
) {
  const { publicUrl } = deps.config;
  const unsubscribeUrl = `${publicUrl}${paths.unsubscribe(unsubscribeToken(recipient.userId, deps.config.authSecret))}`;
  const quoted = facts.body.length > QUOTED_CHARACTERS ? `${facts.body.slice(0, QUOTED_CHARACTERS)}…` : facts.body;
  const what =
    recipient.kind === 'reply'
      ? { subject: `New reply to your comment on “${facts.blog_title}”`, intro: `${facts.commenter} replied to your comment on “${facts.blog_title}”:` }
      : { subject: `New comment on “${facts.blog_title}”`, intro: `${facts.commenter} commented on your blog “${facts.blog_title}”:` };
  const blogUrl = `${publicUrl}${paths.blog(facts.blog_slug)}`;
  const settingsUrl = `${publicUrl}${paths.settings()}`;
  const text = [
    what.intro,
    '',
    quoted.replace(/^/gm, '> '),
    '',
    `Read it and answer: ${blogUrl}`,
    '',
    `— ${siteName}`,
    `You get at most one such e-mail per blog an hour. To stop e-mails about comments and replies, open ${unsubscribeUrl}`,
    `or turn them off in Settings: ${settingsUrl}`,
  ].join('\n');
  // The comment leaves the site the one way a writer's text does (`outgoingText`): its page's
  // sanitised HTML with absolute links. Everything around it is ours, escaped.
  const comment = outgoingText({ html: renderCommentBody(quoted), excerpt: '' }, { pageUrl: blogUrl, imagePrefixes: [], comment: true });
  const link = (url: string, label: string) => `<a href="${escapeHtmlText(url)}">${escapeHtmlText(label)}</a>`;
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtmlText(what.subject)}</title></head><body>`,
    `<p>${escapeHtmlText(what.intro)}</p>`,
    `<blockquote>${comment.html}</blockquote>`,
    `<p>${link(blogUrl, 'Read it and answer')}</p>`,
    `<p>— ${escapeHtmlText(siteName)}</p>`,
    `<p>You get at most one such e-mail per blog an hour. To stop e-mails about comments and replies, ${link(unsubscribeUrl, 'unsubscribe')}`,
    `or turn them off in ${link(settingsUrl, 'Settings')}.</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to: recipient.email,
    subject: what.subject,
    text,
    html,
    // RFC 8058: mail programs show an unsubscribe button that POSTs to this URL, no page needed.
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

export const UNSUBSCRIBE_TEXTS = {
  invalid: 'This unsubscribe link is not valid. You can turn e-mails about comments off in Settings.',
  gone: 'This account does not exist any more.',
} as const;

/** The link's token names the user; no session needed. */
export async function unsubscribeWithToken(deps: Pick<CommentMailDeps, 'db' | 'config'>, token: string): Promise<void> {
  const userId = userOfUnsubscribeToken(token, deps.config.authSecret);
  if (!userId) throw badRequest(UNSUBSCRIBE_TEXTS.invalid, 'INVALID_TOKEN');
  if (!(await saveCommentMailSetting(deps.db, userId, false))) throw notFound(UNSUBSCRIBE_TEXTS.gone);
}

export async function getCommentMailSetting(deps: Pick<CommentMailDeps, 'db'>, userId: string) {
  return { enabled: await isCommentMailEnabled(deps.db, userId) };
}

export async function setCommentMailSetting(deps: Pick<CommentMailDeps, 'db'>, userId: string, enabled: boolean) {
  if (!(await saveCommentMailSetting(deps.db, userId, enabled))) throw notFound(UNSUBSCRIBE_TEXTS.gone);
  return { enabled };
}
