import { randomUUID } from 'node:crypto';
import type { Context, Federation } from '@fedify/fedify';
import { Accept, Article, Create, Delete, Follow, Like, Note, Undo, Update, getActorHandle, isActor } from '@fedify/vocab';
import { deleteRemoteReply, saveRemoteReply, updateRemoteReply } from '../core/remote-replies.js';
import { webLinkOrNull } from '../core/remote-links.js';
import { remoteMarkup } from '../markdown/remote-markup.js';
import { inboxesArePublic, textOf } from './activity-objects.js';
import type { FederationPartDeps } from './federation-deps.js';
import * as store from './federation.repository.js';
import { publicBlogJson } from './public-blogs.js';

/**
 * What the site does with an activity delivered to an inbox (an author's or the shared one), once
 * `inbox-guard.ts` and Fedify's signature check have let it in: Follow, Accept, Undo (of a Follow
 * or a Like), Create and Update (a reply to one of our blogs becomes a comment, a post of someone
 * followed joins the timeline), Delete and Like.
 */
export function registerInboxListeners(federation: Federation<void>, { deps, guard }: FederationPartDeps): void {
  const { db, config } = deps;

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
      if (!(await inboxesArePublic(guard, follower))) return;
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

  /** Our blog's id from its page's URL (`/viewBlog?id=…`, a comment's `#comment-…` too). */
  function localBlogId(url: URL): string | null {
    const own = new URL(config.publicUrl);
    if (url.origin !== own.origin || url.pathname !== '/viewBlog') return null;
    return url.searchParams.get('id');
  }
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
