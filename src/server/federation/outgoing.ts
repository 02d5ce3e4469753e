import { randomUUID } from 'node:crypto';
import type { Context, Federation } from '@fedify/fedify';
import { Article, Create, Delete, Follow, Note, PUBLIC_COLLECTION, Tombstone, Undo, Update, isActor, type Actor } from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { BlogFederatePayload } from '../core/blog-federation.js';
import { NonPublicAddressError } from '../http/public-address.js';
import { PermanentJobError } from '../queue/job-queue.js';
import { articleOf, blogUrl, createOf, inboxesArePublic, textOf } from './activity-objects.js';
import type { FederationPartDeps } from './federation-deps.js';
import * as store from './federation.repository.js';
import type { FederationMessageQueue } from './message-queue.js';
import { publicBlogJson } from './public-blogs.js';
import { renderReplyHtml } from './remote-html.js';

/**
 * What the site sends or serves on its own initiative: a queued delivery (`handleMessage`), a
 * blog's Article for content negotiation, a blog's Create, Update or Delete to its author's
 * followers, and a user's Follow, Undo of it and reply. `federation.ts` runs them under the guard.
 */

/** A refusal the API answers as a 400 (an unknown handle, a post that cannot be found). */
export class FederationInputError extends Error {
  override name = 'FederationInputError';
}

const NOT_PUBLIC_MESSAGE = 'That account’s server is not on a public address.';

export function createOutgoing(federation: Federation<void>, messages: FederationMessageQueue, { deps, guard }: FederationPartDeps) {
  const { db, config } = deps;
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

  return {
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
      return articleOf(deps, ctx, author.handle, blog).toJsonLd({ contextLoader: ctx.contextLoader });
    },
    async federateBlog(payload: BlogFederatePayload) {
      const ctx = context();
      if (payload.action === 'delete') {
        // A Delete goes out for a suspended author too (their posts leave the servers that
        // show them), signed with their keys, to their followers as stored here.
        const account = await store.findHandleOwner(db, payload.handle);
        if (!account || account.id !== payload.userId) return;
        const identifier = payload.handle;
        const id = blogUrl(config.publicUrl, payload.blogId);
        const followers = (await store.listFollowers(db, account.id)).map((row) => ({
          id: new URL(row.actor_id),
          inboxId: new URL(row.inbox_url),
          endpoints: row.shared_inbox_url ? { sharedInbox: new URL(row.shared_inbox_url) } : null,
        }));
        if (followers.length === 0) return;
        await ctx.sendActivity({ identifier }, followers, new Delete({
          id: new URL(`${id.href}#delete/${randomUUID()}`),
          actor: ctx.getActorUri(identifier),
          object: new Tombstone({ id }),
          to: PUBLIC_COLLECTION,
          cc: ctx.getFollowersUri(identifier),
        }), { preferSharedInbox: true });
        return;
      }
      const author = await store.findLocalActor(db, payload.handle);
      // A suspended, blocked or renamed-away author sends nothing more.
      if (!author || author.id !== payload.userId) return;
      const identifier = author.handle;
      // Drafts, hidden blogs and blogs gone since the job was queued never leave.
      const blog = await publicBlogJson(deps, payload.blogId);
      if (!blog || blog.userId !== author.id) return;
      const article = articleOf(deps, ctx, identifier, blog);
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
      if (!(await inboxesArePublic(guard, actor))) throw new FederationInputError(NOT_PUBLIC_MESSAGE);
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
      if (!(await inboxesArePublic(guard, author))) throw new FederationInputError(NOT_PUBLIC_MESSAGE);
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
}

/** The inbox a queued Fedify message delivers to (its `outbox` messages), or null for any other message. */
function deliveryInbox(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const { type, inbox } = message as { type?: unknown; inbox?: unknown };
  return type === 'outbox' && typeof inbox === 'string' ? inbox : null;
}
