import type { Context } from '@fedify/fedify';
import { Article, Create, Hashtag, Image, PUBLIC_COLLECTION, type Actor } from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { Blog } from '../../shared/blog-schema.js';
import { absoluteUrl, paths } from '../../shared/paths.js';
import { NonPublicAddressError, type OutgoingRequestGuard } from '../http/public-address.js';
import { outgoingText } from '../markdown/outgoing-text.js';
import type { FederationDeps } from './federation-deps.js';

/**
 * What more than one part of the site's federation uses: a blog as the fediverse sees it (its
 * URL, its Article and the Create of it: the outbox serves them, the outgoing operations send
 * them), a remote value as text, and the check of an actor's inboxes (before accepting a Follow
 * and before following or replying).
 */

/** A blog's page at `/viewBlog?id=`, which is also its Article's id: an id never changes, so it stays this one. */
export const blogUrl = (publicUrl: string, id: string) => new URL(absoluteUrl(publicUrl, paths.viewBlog(id)));

/** A blog's readable address (issue 58): the Article's `url`, the page people are sent to; it moves with a new title. */
export const blogPageUrl = (publicUrl: string, slug: string) => new URL(absoluteUrl(publicUrl, paths.blog(slug)));

/** What leaves the site goes through `outgoingText`: the page's markup sanitised once more, every link and image absolute. */
export function articleOf(deps: Pick<FederationDeps, 'config' | 'storage'>, ctx: Context<void>, identifier: string, blog: Blog): Article {
  const { config } = deps;
  const out = outgoingText({ html: blog.html, excerpt: blog.excerpt }, { pageUrl: blogPageUrl(config.publicUrl, blog.slug).href, imagePrefixes: [deps.storage.publicBaseUrl] });
  return new Article({
    id: blogUrl(config.publicUrl, blog.id),
    attribution: ctx.getActorUri(identifier),
    name: blog.title,
    content: out.html,
    summary: out.text ? out.textAsHtml : null,
    url: blogPageUrl(config.publicUrl, blog.slug),
    published: Temporal.Instant.from(blog.createdAt),
    updated: Temporal.Instant.from(blog.updatedAt),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(identifier),
    image: blog.imageUrl ? new Image({ url: new URL(blog.imageUrl, config.publicUrl) }) : null,
    tags: blog.tags.map((tag) => new Hashtag({ name: `#${tag}`, href: new URL(absoluteUrl(config.publicUrl, paths.tag(tag))) })),
  });
}

export function createOf(ctx: Context<void>, identifier: string, article: Article): Create {
  return new Create({
    id: new URL(`${article.id!.href}#create`),
    actor: ctx.getActorUri(identifier),
    object: article,
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(identifier),
    published: article.published,
  });
}

export function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value);
}

/**
 * Whether the inboxes an actor names (its own and its server's shared one) are on public
 * addresses; always, where private addresses are allowed. A lookup that fails throws (retried).
 */
export async function inboxesArePublic(guard: OutgoingRequestGuard, actor: Actor): Promise<boolean> {
  try {
    for (const inbox of [actor.inboxId, actor.endpoints?.sharedInbox]) if (inbox) await guard.assertAllowed(inbox);
    return true;
  } catch (error) {
    if (error instanceof NonPublicAddressError) return false;
    throw error;
  }
}
