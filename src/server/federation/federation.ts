import { randomUUID } from 'node:crypto';
import { createFederation, exportJwk, generateCryptoKeyPair, importJwk, type Context, type Federation, type FederationFetchOptions } from '@fedify/fedify';
import {
  Accept,
  Article,
  Create,
  Delete,
  Endpoints,
  Follow,
  Hashtag,
  Image,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
  Update,
  getActorHandle,
  isActor,
  type Actor,
} from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { Kysely } from 'kysely';
import type { Blog } from '../../shared/blog-schema.js';
import { absoluteUrl, paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { BlogFederatePayload } from '../core/blog-federation.js';
import { NonPublicAddressError, outgoingRequestGuard } from '../http/public-address.js';
import { escapeHtmlText, outgoingText } from '../markdown/outgoing-text.js';
import { PermanentJobError, type JobQueue } from '../queue/job-queue.js';
import type { ImageStorage } from '../storage/storage.js';
import { createKvStore } from './kv-store.js';
import { createMessageQueue, type FederationMessageQueue } from './message-queue.js';
import * as store from './federation.repository.js';
import { remoteMarkup } from '../markdown/remote-markup.js';
import { renderReplyHtml } from './remote-html.js';
import { publicBlogJson } from './public-blogs.js';
import { deleteRemoteReply, saveRemoteReply, updateRemoteReply } from '../core/remote-replies.js';
import { webLinkOrNull } from '../core/remote-links.js';
import { checkInboxRequest, isUnreadableActivityError } from './inbox-guard.js';

/**
 * The site's ActivityPub side, on Fedify. This module (and Fedify with it) is loaded only by the
 * first federation request or job (`federation-loader.ts`): an ordinary request never pays for it.
 * Objects are built from the blog JSON the pages use; an author's actor never shows their e-mail.
 */
export interface FederationDeps {
  config: Config;
  db: Kysely<Database>;
  storage: ImageStorage;
  queue: Pick<JobQueue, 'wake'>;
  contentChanged(tags: readonly string[]): Promise<void>;
}

export interface SiteFederation {
  federation: Federation<void>;
  messages: FederationMessageQueue;
  /**
   * Fedify's routes. An inbox POST passes `inbox-guard.ts` first (shape, then signature); every
   * request Fedify makes while answering is held to public addresses (`http/public-address.ts`).
   */
  fetch(request: Request, options: FederationFetchOptions<void>): Promise<Response>;
  /** One queued Fedify message: a delivery to a non-public inbox fails for good, unsent; the rest run guarded. */
  handleMessage(message: unknown): Promise<void>;
  /** The Article of a public blog as JSON-LD; null when the fediverse may not see it. */
  articleJson(blogId: string): Promise<unknown | null>;
  federateBlog(payload: BlogFederatePayload): Promise<void>;
  follow(userId: string, handle: string): Promise<{ actorId: string; handle: string; name: string | null; state: 'pending' | 'accepted' }>;
  unfollow(userId: string, actorId: string): Promise<boolean>;
  reply(userId: string, inReplyTo: string, text: string): Promise<{ id: string }>;
}

const PAGE_SIZE = 20;

export function createSiteFederation(deps: FederationDeps): SiteFederation {
  const { db, config } = deps;
  const messages = createMessageQueue(db, deps.queue);
  // Every request made on another server's word: inboxes, actors, keys, objects, contexts, WebFinger.
  const guard = outgoingRequestGuard({ allowPrivateAddress: config.federation.allowPrivateAddress });
  const federation = createFederation<void>({
    kv: createKvStore(db),
    queue: messages,
    manuallyStartQueue: true,
    origin: config.publicUrl,
    allowPrivateAddress: config.federation.allowPrivateAddress,
  });

  const blogUrl = (id: string) => new URL(absoluteUrl(config.publicUrl, paths.viewBlog(id)));

  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      if (!user) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: user.handle,
        name: user.display_name ?? user.handle,
        summary: user.bio ? `<p>${escapeHtmlText(user.bio)}</p>` : null,
        url: new URL(absoluteUrl(config.publicUrl, paths.author(user.id))),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      if (!user) return [];
      return Promise.all((['RSASSA-PKCS1-v1_5', 'Ed25519'] as const).map((algorithm) => keyPair(db, user.id, algorithm)));
    });

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
    const usage = await store.countUsage(db);
    return {
      software: { name: 'blogging-site', version: '1.0.0' },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: { users: { total: usage.users }, localPosts: usage.posts, localComments: usage.comments },
    };
  });

  federation
    .setFollowersDispatcher('/users/{identifier}/followers', async (_ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      if (!user) return null;
      const rows = await store.listFollowers(db, user.id);
      return {
        items: rows.map((row) => ({
          id: new URL(row.actor_id),
          inboxId: new URL(row.inbox_url),
          endpoints: row.shared_inbox_url ? { sharedInbox: new URL(row.shared_inbox_url) } : null,
        })),
      };
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      return user ? store.countFollowers(db, user.id) : null;
    });

  federation
    .setOutboxDispatcher('/users/{identifier}/outbox', async (ctx, identifier, cursor) => {
      const user = await store.findLocalActor(db, identifier);
      if (!user) return null;
      const offset = cursor ? Number.parseInt(cursor, 10) || 0 : 0;
      const ids = await store.listPublicBlogIds(db, user.id, { offset, limit: PAGE_SIZE });
      const items: Create[] = [];
      for (const id of ids) {
        const blog = await publicBlogJson(deps, id);
        if (blog) items.push(createOf(ctx, identifier, articleOf(ctx, identifier, blog)));
      }
      return { items, nextCursor: ids.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : null };
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      return user ? store.countPublicBlogs(db, user.id) : null;
    })
    .setFirstCursor(() => '0');

  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor') return;
      const user = await store.findLocalActor(db, target.identifier);
      if (!user) return;
      const follower = await follow.getActor(ctx);
      if (!follower?.id || !follower.inboxId || follower.id.href !== follow.actorId.href) return;
      // An actor whose inbox is not public would have us post there with every blog: no Accept, no follower.
      if (!(await inboxesArePublic(follower))) return;
      await store.saveFollower(db, {
        user_id: user.id,
        actor_id: follower.id.href,
        inbox_url: follower.inboxId.href,
        shared_inbox_url: follower.endpoints?.sharedInbox?.href ?? null,
        handle: await getActorHandle(follower, { trimLeadingAt: true }).catch(() => null),
        name: textOf(follower.name),
        follow_id: follow.id.href,
      });
      await ctx.sendActivity({ identifier: target.identifier }, follower, new Accept({
        id: new URL(`${ctx.getActorUri(target.identifier).href}#accepts/${randomUUID()}`),
        actor: ctx.getActorUri(target.identifier),
        object: follow,
      }));
    })
    .on(Accept, async (ctx, accept) => {
      if (!accept.actorId || !accept.objectId) return;
      // The Follow (embedded, or by its id), or, as some servers send, the follower itself.
      const follow = await accept.getObject(ctx).catch(() => null);
      const follower = follow instanceof Follow ? follow.actorId : accept.objectId;
      const local = follower ? ctx.parseUri(follower) : null;
      if (local?.type === 'actor') {
        const user = await store.findLocalActor(db, local.identifier);
        if (user) await store.acceptFollowing(db, { userId: user.id, actorId: accept.actorId.href });
        return;
      }
      if (follow instanceof Follow && follow.id) await store.acceptFollowingById(db, { actorId: accept.actorId.href, followId: follow.id.href });
    })
    .on(Undo, async (ctx, undo) => {
      if (!undo.actorId) return;
      const object = await undo.getObject(ctx).catch(() => null);
      if (object instanceof Follow) {
        const target = object.objectId && ctx.parseUri(object.objectId);
        const user = target && target.type === 'actor' ? await store.findLocalActor(db, target.identifier) : undefined;
        if (user) await store.removeFollower(db, user.id, undo.actorId.href);
      } else if (object instanceof Like) {
        if (object.id) await store.removeLike(db, { actorId: undo.actorId.href, activityId: object.id.href });
      }
    })
    .on(Create, async (ctx, create) => {
      if (!create.actorId) return;
      const object = await create.getObject(ctx);
      if (!(object instanceof Article || object instanceof Note) || !object.id) return;
      // Only what the sender wrote itself: a Create of someone else's object is not theirs to send.
      if (object.attributionId?.href !== create.actorId.href) return;
      if (object.replyTargetId && (await receiveReply(ctx, create.actorId, object))) return;
      if (!(await store.isFollowed(db, create.actorId.href))) return;
      await store.savePost(db, postRow(create.actorId.href, object));
    })
    .on(Update, async (ctx, update) => {
      if (!update.actorId) return;
      const object = await update.getObject(ctx);
      if (!(object instanceof Article || object instanceof Note) || !object.id) return;
      if (object.attributionId?.href !== update.actorId.href) return;
      // A reply of theirs to one of our blogs (sanitised inside), else a post of someone followed.
      if (await updateRemoteReply(deps, { objectId: object.id.href, actorId: update.actorId.href, html: textOf(object.content) ?? '' })) return;
      if (!(await store.isFollowed(db, update.actorId.href))) return;
      await store.savePost(db, postRow(update.actorId.href, object));
    })
    .on(Delete, async (_ctx, del) => {
      if (!del.actorId || !del.objectId) return;
      const objectId = del.objectId.href;
      await store.removePost(db, { objectId, actorId: del.actorId.href });
      await deleteRemoteReply(deps, { objectId, actorId: del.actorId.href });
    })
    .on(Like, async (_ctx, like) => {
      if (!like.actorId || !like.objectId) return;
      const blogId = localBlogId(like.objectId);
      if (blogId && (await publicBlogJson(deps, blogId))) await store.saveLike(db, { blogId, actorId: like.actorId.href, activityId: like.id?.href ?? null });
    });

  /** A Note or Article answering one of our blogs (or one of its comments) becomes a comment. */
  async function receiveReply(ctx: Context<void>, actorId: URL, object: Article | Note): Promise<boolean> {
    const target = object.replyTargetId!;
    const blogId = localBlogId(target);
    if (!blogId) return false;
    const actor = await object.getAttribution(ctx).catch(() => null);
    if (!actor || !isActor(actor)) return true;
    const commentId = target.hash.startsWith('#comment-') ? target.hash.slice('#comment-'.length) : null;
    await saveRemoteReply(deps, {
      objectId: object.id!.href,
      blogId,
      parentCommentId: commentId,
      // The profile link is the actor's `url` or its id, and only ever an http(s) one.
      actor: { id: actorId.href, name: textOf(actor.name) ?? actor.preferredUsername?.toString() ?? actorId.host, url: webLinkOrNull(urlOf(actor.url)) ?? webLinkOrNull(actorId.href) },
      html: textOf(object.content) ?? '',
      published: object.published ? new Date(object.published.epochMilliseconds) : null,
    });
    return true;
  }

  /**
   * Whether the inboxes an actor names (its own and its server's shared one) are on public
   * addresses; always, where private addresses are allowed. A lookup that fails throws (retried).
   */
  async function inboxesArePublic(actor: Actor): Promise<boolean> {
    try {
      for (const inbox of [actor.inboxId, actor.endpoints?.sharedInbox]) if (inbox) await guard.assertAllowed(inbox);
      return true;
    } catch (error) {
      if (error instanceof NonPublicAddressError) return false;
      throw error;
    }
  }

  /** Our blog's id from its page's URL (`/viewBlog?id=…`, a comment's `#comment-…` too). */
  function localBlogId(url: URL): string | null {
    const own = new URL(config.publicUrl);
    if (url.origin !== own.origin || url.pathname !== '/viewBlog') return null;
    return url.searchParams.get('id');
  }

  /** What leaves the site goes through `outgoingText`: the page's markup sanitised once more, every link and image absolute. */
  function articleOf(ctx: Context<void>, identifier: string, blog: Blog): Article {
    const out = outgoingText({ html: blog.html, excerpt: blog.excerpt }, { pageUrl: blogUrl(blog.id).href, imagePrefixes: [deps.storage.publicBaseUrl] });
    return new Article({
      id: blogUrl(blog.id),
      attribution: ctx.getActorUri(identifier),
      name: blog.title,
      content: out.html,
      summary: out.text ? out.textAsHtml : null,
      url: blogUrl(blog.id),
      published: Temporal.Instant.from(blog.createdAt),
      updated: Temporal.Instant.from(blog.updatedAt),
      to: PUBLIC_COLLECTION,
      cc: ctx.getFollowersUri(identifier),
      image: blog.imageUrl ? new Image({ url: new URL(blog.imageUrl, config.publicUrl) }) : null,
      tags: blog.tags.map((tag) => new Hashtag({ name: `#${tag}`, href: new URL(absoluteUrl(config.publicUrl, paths.tag(tag))) })),
    });
  }

  function createOf(ctx: Context<void>, identifier: string, article: Article): Create {
    return new Create({
      id: new URL(`${article.id!.href}#create`),
      actor: ctx.getActorUri(identifier),
      object: article,
      to: PUBLIC_COLLECTION,
      cc: ctx.getFollowersUri(identifier),
      published: article.published,
    });
  }

  const context = () => federation.createContext(new URL(config.publicUrl));

  /**
   * WebFinger of `user@host` is always asked over https (Fedify, like every server). Only where
   * private addresses are allowed (two local sites in a test) is plain http tried as well.
   */
  async function lookupHandle(ctx: Context<void>, handle: string) {
    const found = await ctx.lookupObject(`@${handle}`).catch(() => null);
    if (found || !config.federation.allowPrivateAddress) return found;
    const host = handle.slice(handle.lastIndexOf('@') + 1);
    const response = await fetch(`http://${host}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${handle}`)}`, { headers: { accept: 'application/jrd+json' } }).catch(() => null);
    if (!response?.ok) return null;
    const links = ((await response.json().catch(() => ({}))) as { links?: Array<{ rel?: string; type?: string; href?: string }> }).links ?? [];
    const self = links.find((link) => link.rel === 'self' && link.href && /activity\+json|ld\+json/.test(link.type ?? ''));
    return self?.href ? ctx.lookupObject(self.href).catch(() => null) : null;
  }

  const api = {
    async fetch(request: Request, options: FederationFetchOptions<void>): Promise<Response> {
      if (request.method === 'POST') {
        const refused = await checkInboxRequest(request, federation.createContext(request, undefined));
        if (refused) return refused;
      }
      try {
        return await federation.fetch(request, options);
      } catch (error) {
        if (request.method !== 'POST' || !isUnreadableActivityError(error)) throw error;
        return new Response('Invalid activity.', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      }
    },
    async handleMessage(message: unknown): Promise<void> {
      const inbox = deliveryInbox(message);
      if (inbox) {
        try {
          await guard.assertAllowed(inbox);
        } catch (error) {
          // Shown to moderators as a failed job, never retried. A lookup that failed is the delivery's to retry.
          if (error instanceof NonPublicAddressError) throw new PermanentJobError(`Not delivered to ${inbox}: ${error.message}`);
        }
      }
      await messages.handle(message);
    },
    async articleJson(blogId: string) {
      const blog = await publicBlogJson(deps, blogId);
      if (!blog) return null;
      const author = await store.findAuthorOf(db, blog.userId);
      if (!author) return null;
      const ctx = context();
      return articleOf(ctx, author.handle, blog).toJsonLd({ contextLoader: ctx.contextLoader });
    },
    async federateBlog(payload: BlogFederatePayload) {
      const ctx = context();
      const author = await store.findLocalActor(db, payload.handle);
      // A suspended, blocked or renamed-away author sends nothing.
      if (!author || author.id !== payload.userId) return;
      const identifier = author.handle;
      if (payload.action === 'delete') {
        const id = blogUrl(payload.blogId);
        await ctx.sendActivity({ identifier }, 'followers', new Delete({
          id: new URL(`${id.href}#delete/${randomUUID()}`),
          actor: ctx.getActorUri(identifier),
          object: new Tombstone({ id }),
          to: PUBLIC_COLLECTION,
          cc: ctx.getFollowersUri(identifier),
        }), { preferSharedInbox: true });
        return;
      }
      // Drafts, hidden blogs and blogs gone since the job was queued never leave.
      const blog = await publicBlogJson(deps, payload.blogId);
      if (!blog || blog.userId !== author.id) return;
      const article = articleOf(ctx, identifier, blog);
      const activity = payload.action === 'create'
        ? createOf(ctx, identifier, article)
        : new Update({ id: new URL(`${article.id!.href}#update/${randomUUID()}`), actor: ctx.getActorUri(identifier), object: article, to: PUBLIC_COLLECTION, cc: ctx.getFollowersUri(identifier) });
      await ctx.sendActivity({ identifier }, 'followers', activity, { preferSharedInbox: true });
    },
    async follow(userId: string, handle: string) {
      const ctx = context();
      const me = await store.findAuthorOf(db, userId);
      if (!me) throw new FederationInputError('Your account cannot follow anyone.');
      const found = await lookupHandle(ctx, handle.replace(/^@/, ''));
      if (!found || !isActor(found) || !found.id || !found.inboxId) throw new FederationInputError('No fediverse account was found at that address.');
      const actor = found as Actor;
      if (!(await inboxesArePublic(actor))) throw new FederationInputError(NOT_PUBLIC_MESSAGE);
      const followId = new URL(`${ctx.getActorUri(me.handle).href}#follows/${randomUUID()}`);
      const actorHandle = handle.replace(/^@/, '').toLowerCase();
      const name = textOf(actor.name);
      const state = await store.saveFollowing(db, { user_id: userId, actor_id: actor.id!.href, handle: actorHandle, name, inbox_url: actor.inboxId!.href, follow_id: followId.href });
      await ctx.sendActivity({ identifier: me.handle }, actor, new Follow({ id: followId, actor: ctx.getActorUri(me.handle), object: actor.id }));
      return { actorId: actor.id!.href, handle: actorHandle, name, state };
    },
    async unfollow(userId: string, actorId: string) {
      const ctx = context();
      const me = await store.findAuthorOf(db, userId);
      const row = await store.removeFollowing(db, userId, actorId);
      if (!row || !me) return false;
      const follow = new Follow({ id: new URL(row.follow_id), actor: ctx.getActorUri(me.handle), object: new URL(row.actor_id) });
      await ctx.sendActivity({ identifier: me.handle }, { id: new URL(row.actor_id), inboxId: new URL(row.inbox_url) }, new Undo({
        id: new URL(`${row.follow_id}/undo`),
        actor: ctx.getActorUri(me.handle),
        object: follow,
      }));
      return true;
    },
    async reply(userId: string, inReplyTo: string, text: string) {
      const ctx = context();
      const me = await store.findAuthorOf(db, userId);
      if (!me) throw new FederationInputError('Your account cannot reply.');
      const target = await ctx.lookupObject(inReplyTo).catch(() => null);
      if (!(target instanceof Article || target instanceof Note) || !target.id || !target.attributionId) throw new FederationInputError('That post could not be found.');
      const author = await target.getAttribution(ctx).catch(() => null);
      if (!author || !isActor(author) || !author.id || !author.inboxId) throw new FederationInputError('The author of that post could not be found.');
      if (!(await inboxesArePublic(author))) throw new FederationInputError(NOT_PUBLIC_MESSAGE);
      const noteId = new URL(`${ctx.getActorUri(me.handle).href}/notes/${randomUUID()}`);
      const note = new Note({
        id: noteId,
        attribution: ctx.getActorUri(me.handle),
        content: renderReplyHtml(text),
        replyTarget: target.id,
        to: author.id,
        cc: PUBLIC_COLLECTION,
        published: Temporal.Now.instant(),
      });
      await ctx.sendActivity({ identifier: me.handle }, author, new Create({
        id: new URL(`${noteId.href}#create`),
        actor: ctx.getActorUri(me.handle),
        object: note,
        to: author.id,
        cc: PUBLIC_COLLECTION,
      }));
      return { id: noteId.href };
    },
  };
  // Whatever they fetch or send on another server's word stays on public addresses.
  const guarded = <A extends unknown[], R>(work: (...args: A) => Promise<R>) => (...args: A) => guard.run(() => work(...args));
  return {
    federation,
    messages,
    fetch: guarded(api.fetch),
    handleMessage: guarded(api.handleMessage),
    articleJson: api.articleJson,
    federateBlog: guarded(api.federateBlog),
    follow: guarded(api.follow),
    unfollow: guarded(api.unfollow),
    reply: guarded(api.reply),
  };
}

const NOT_PUBLIC_MESSAGE = 'That account’s server is not on a public address.';

/** The inbox a queued Fedify message delivers to (its `outbox` messages), or null for any other message. */
function deliveryInbox(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const { type, inbox } = message as { type?: unknown; inbox?: unknown };
  return type === 'outbox' && typeof inbox === 'string' ? inbox : null;
}

/** A refusal the API answers as a 400 (an unknown handle, a post that cannot be found). */
export class FederationInputError extends Error {
  override name = 'FederationInputError';
}

async function keyPair(db: Kysely<Database>, userId: string, algorithm: 'RSASSA-PKCS1-v1_5' | 'Ed25519'): Promise<CryptoKeyPair> {
  const stored = await store.findKey(db, userId, algorithm);
  if (stored) {
    return { privateKey: await importJwk(stored.private_key, 'private'), publicKey: await importJwk(stored.public_key, 'public') };
  }
  const generated = await generateCryptoKeyPair(algorithm);
  const saved = await store.saveKey(db, {
    user_id: userId,
    algorithm,
    private_key: JSON.stringify(await exportJwk(generated.privateKey)),
    public_key: JSON.stringify(await exportJwk(generated.publicKey)),
  });
  // Another request made the pair first: theirs is the one published.
  if (!saved) return keyPair(db, userId, algorithm);
  return generated;
}

function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value);
}

function urlOf(value: unknown): string | null {
  if (value instanceof URL) return value.href;
  if (value && typeof value === 'object' && 'href' in value && value.href instanceof URL) return value.href.href;
  return null;
}

function postRow(actorId: string, object: Article | Note) {
  const content = textOf(object.content) ?? '';
  // Kept and shown as a link only when it is an http(s) one.
  const url = webLinkOrNull(urlOf(object.url)) ?? webLinkOrNull(object.id!.href);
  return {
    object_id: object.id!.href,
    actor_id: actorId,
    url,
    title: (textOf(object.name) ?? '').slice(0, 300),
    // Relative links in a post are relative to where it lives, not to this site.
    html: remoteMarkup(content, url ?? ''),
    summary: object.summary ? remoteMarkup(textOf(object.summary) ?? '', url ?? '') : null,
    published_at: object.published ? new Date(object.published.epochMilliseconds) : null,
    updated_at: object.updated ? new Date(object.updated.epochMilliseconds) : null,
  };
}

