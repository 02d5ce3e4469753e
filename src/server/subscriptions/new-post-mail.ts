import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Blog } from '../../shared/blog-schema.js';
import { absoluteUrl, paths } from '../../shared/paths.js';
import { BLOG_PUBLISHED_JOB, blogPublishedJob } from '../core/blog-published.js';
import type { BlogEvents } from '../core/blog-events.js';
import { findBlogRow } from '../core/blog-rows.repository.js';
import { toBlogJson } from '../core/blog-json.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { RatedSend } from '../mail/mail-queue.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import { escapeHtmlText, outgoingText } from '../markdown/outgoing-text.js';
import { enqueueJob, type JobQueue } from '../queue/job-queue.js';
import type { ImageStorage } from '../storage/storage.js';
import { findSubscription, queueNewPostMails, type SubscriptionRow } from './subscriptions.repository.js';
import { unsubscribeUrl } from './subscriptions.service.js';
import type { SiteNameSource } from '../core/site-settings.js';

/** One address, one new blog: its job key is `new-post-mail:<blog>:<address>`, so nobody hears of a blog twice. */
export const NEW_POST_MAIL_JOB = 'new-post-mail';

export interface NewPostMailDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  config: Pick<Config, 'publicUrl' | 'authSecret'>;
  /** The site's name in the mail and how it names the author ('Show authors by'), as its settings have it now. */
  siteSettings: SiteNameSource;
  log: FastifyBaseLogger;
  send: RatedSend;
  transport: Mailer;
}

/** The blog as readers see it now; null when they no longer can (deleted, hidden, its author suspended). */
async function publicBlog(deps: NewPostMailDeps, blogId: string): Promise<Blog | null> {
  const row = await findBlogRow(deps.db, null, blogId);
  return row ? toBlogJson(row, deps.storage, (await deps.siteSettings.get()).showAuthorsBy) : null;
}

/**
 * A blog made public (its `published` event, `core/blog-events.ts`) queues `blog-published`, keyed
 * by the blog: a blog is announced once, however often it is unpublished and published again (a
 * moderator's hide and restore, a suspension and its end), and an import announces nothing. That
 * job queues one mail per subscribed address; each mail is a job of its own, sent at
 * `MAIL_SEND_PER_MINUTE` with retries. Each checks again just before sending that readers can
 * still see the blog and the subscription still stands.
 */
export function registerSubscriptionJobs(queue: JobQueue, blogEvents: BlogEvents, deps: NewPostMailDeps) {
  blogEvents.subscribe({
    name: 'subscription-mail',
    wants: (event) => event.transition === 'published' && event.origin !== 'import',
    async handle(event) {
      if (await enqueueJob(deps.db, blogPublishedJob(event.blogId))) queue.wake();
    },
  });

  queue.register<{ blogId: string }>({
    kind: BLOG_PUBLISHED_JOB,
    async run(job, { log }) {
      const blog = await publicBlog(deps, job.payload.blogId);
      if (!blog) return;
      const queued = await queueNewPostMails(deps.db, { id: blog.id, authorId: blog.userId }, NEW_POST_MAIL_JOB);
      log.info({ blogId: blog.id, queued }, 'new blog: subscription e-mails queued');
      queue.wake();
    },
  });

  queue.register<{ blogId: string; subscriptionId: string }>({
    kind: NEW_POST_MAIL_JOB,
    async run(job, { log, signal }) {
      const [blog, subscription] = await Promise.all([publicBlog(deps, job.payload.blogId), findSubscription(deps.db, job.payload.subscriptionId)]);
      if (!blog || !subscription?.confirmed_at) {
        log.info({ blogId: job.payload.blogId }, 'subscription e-mail not sent: the blog or the subscription is gone');
        return;
      }
      await deps.send(newPostMail(deps, blog, subscription, (await deps.siteSettings.get()).siteName), deps.transport, signal);
    },
  });
}

/**
 * The sanitised part of a new blog's mail is the same for every subscriber: made once per text
 * (the last few kept), not 10,000 times. Keyed by the fragment itself, so an edit makes a new one.
 */
const recentBodies = new Map<string, string>();
function sanitizedOnce(fragment: string, sanitize: () => string): string {
  let html = recentBodies.get(fragment);
  if (html === undefined) {
    html = sanitize();
    recentBodies.set(fragment, html);
    if (recentBodies.size > 8) recentBodies.delete(recentBodies.keys().next().value!);
  }
  return html;
}

/** Title, author, excerpt, cover image and link; plain text and HTML (through `outgoingText`, as every writer's text leaving the site). */
export function newPostMail(deps: Pick<NewPostMailDeps, 'config' | 'storage'>, blog: Blog, subscription: SubscriptionRow, siteName: string): MailMessage {
  const { publicUrl } = deps.config;
  const blogUrl = absoluteUrl(publicUrl, paths.blog(blog.slug));
  const leaveUrl = unsubscribeUrl(deps.config, subscription.id);
  const why = subscription.author_id ? `you subscribed to ${blog.author} on ${siteName}` : `you subscribed to ${siteName}`;
  const subject = subscription.author_id ? `${blog.author} published “${blog.title}”` : `New on ${siteName}: “${blog.title}”`;
  const imageUrl = blog.image?.url ?? blog.imageUrl;
  const cover = imageUrl ? new URL(imageUrl, `${publicUrl}/`).href : null;
  const text = [
    blog.title,
    `by ${blog.author}`,
    '',
    blog.excerpt,
    '',
    `Read it: ${blogUrl}`,
    '',
    `— ${siteName}`,
    `You get this e-mail because ${why}. To stop these e-mails, open ${leaveUrl}`,
  ].join('\n');
  // The writer's parts (title, author, excerpt, image) go into markup escaped, and the whole
  // passes the page's sanitiser with absolute links, as every writer's text leaving the site does.
  const fragment = [
    `<h1><a href="${escapeHtmlText(blogUrl)}">${escapeHtmlText(blog.title)}</a></h1>`,
    `<p>by ${escapeHtmlText(blog.author)}</p>`,
    cover ? `<p><img src="${escapeHtmlText(cover)}" alt="" width="600"></p>` : '',
    `<p>${escapeHtmlText(blog.excerpt)}</p>`,
    `<p><a href="${escapeHtmlText(blogUrl)}">Read it</a></p>`,
  ].join('\n');
  const body = sanitizedOnce(fragment, () => outgoingText({ html: fragment, excerpt: blog.excerpt }, { pageUrl: blogUrl, imagePrefixes: [deps.storage.publicBaseUrl] }).html);
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtmlText(subject)}</title></head><body>`,
    body,
    `<p>— ${escapeHtmlText(siteName)}</p>`,
    `<p>You get this e-mail because ${escapeHtmlText(why)}. <a href="${escapeHtmlText(leaveUrl)}">Unsubscribe</a>.</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to: subscription.email,
    subject,
    text,
    html,
    // RFC 8058: mail programs show an unsubscribe button that POSTs to this URL, no page needed.
    headers: { 'List-Unsubscribe': `<${leaveUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    // A retry after a crash that came between the server's 'accepted' and our record is the same message.
    messageId: `<new-post.${blog.id}.${subscription.id}@${new URL(publicUrl).hostname}>`,
  };
}
