import type { Kysely } from 'kysely';
import { z } from 'zod';
import { LISTS_TAG, blogTag } from '../../shared/cache-tags.js';
import type { Database } from '../db/schema.js';
import { remoteCommentMarkup } from '../markdown/remote-markup.js';
import { webLinkOrNull } from './remote-links.js';
import type { ContentChanges } from '../cache/content-changes.js';
import {
  deleteComment,
  findCommentIdOfRemoteObject,
  findCommentOfBlog,
  findRemoteReply,
  insertRemoteReplyComment,
  blogIsPublic,
  updateRemoteReplyText,
} from './remote-replies.repository.js';

/**
 * Replies from the fediverse, kept as comments (issue #20): a remote `Note` in reply to one of our
 * blogs (or to a comment on it) becomes a comment row with no local author (`user_id` null) and the
 * remote actor's id, name and profile page in its `remote_*` columns. From then on it is a comment
 * like the others: counted, listed, reportable and hideable by moderators; only its remote author
 * changes or removes it, through Update and Delete activities matched on the actor.
 *
 * Federation calls these from its inbox; they live in the core because comments are the comments
 * feature's rows and federation is another feature (neither imports the other).
 */
export interface RemoteReplyDeps {
  db: Kysely<Database>;
  /** The cached answers a change touches go (`cache/content-changes.ts`). */
  contentChanges: ContentChanges;
}

export interface RemoteActor {
  /** The actor's id (its ActivityPub URL). */
  id: string;
  /** What the comment shows as its author. */
  name: string;
  /** The profile page a reader may open; kept only when it is an http(s) URL. */
  url: string | null;
}

/** Longest name and text kept from a remote reply; a longer one is cut. */
const NAME_MAX = 200;
const TEXT_MAX = 20_000;

/**
 * Keeps a remote reply as a comment on a public blog. `html` is the remote markup, sanitised
 * here as our comments are. A reply to a reply, or to a comment that is not on this blog, is kept
 * as a reply to the thread's top comment or as a top-level comment. Saving the same object twice
 * changes nothing (`created` false). Null: the blog is not public (or does not exist).
 */
export async function saveRemoteReply(
  deps: RemoteReplyDeps,
  reply: { objectId: string; blogId: string; parentCommentId: string | null; actor: RemoteActor; html: string; published: Date | null },
): Promise<{ commentId: string; created: boolean } | null> {
  const { db } = deps;
  if (!isUuid(reply.blogId)) return null;
  if (!(await blogIsPublic(db, reply.blogId))) return null;
  const existing = await findCommentIdOfRemoteObject(db, reply.objectId);
  if (existing) return { commentId: existing, created: false };

  const parentId = reply.parentCommentId === null ? null : await threadTop(db, reply.blogId, reply.parentCommentId);
  const profileUrl = webLinkOrNull(reply.actor.url);
  const markup = remoteCommentMarkup(reply.html, profileUrl ?? webLinkOrNull(reply.actor.id) ?? '');
  const saved = await insertRemoteReplyComment(db, {
    blogId: reply.blogId,
    parentId,
    body: markup.text.slice(0, TEXT_MAX),
    html: markup.html,
    objectId: reply.objectId,
    actorId: reply.actor.id,
    authorName: reply.actor.name.slice(0, NAME_MAX),
    authorUrl: profileUrl,
    createdAt: reply.published && reply.published.getTime() <= Date.now() ? reply.published : null,
  });
  if (!saved.created) return saved;
  await deps.contentChanges.changed([LISTS_TAG, blogTag(reply.blogId)]);
  return saved;
}

/** Its author edited it: the new text replaces the old. False: no such reply of that actor. */
export async function updateRemoteReply(deps: RemoteReplyDeps, reply: { objectId: string; actorId: string; html: string }): Promise<boolean> {
  const current = await findRemoteReply(deps.db, reply);
  if (!current) return false;
  const markup = remoteCommentMarkup(reply.html, webLinkOrNull(current.remote_author_url) ?? webLinkOrNull(reply.actorId) ?? '');
  await updateRemoteReplyText(deps.db, current.id, { body: markup.text.slice(0, TEXT_MAX), html: markup.html });
  await deps.contentChanges.changed([blogTag(current.blog_id)]);
  return true;
}

/** Its author deleted it: it goes, with its replies, as a comment deleted here does. */
export async function deleteRemoteReply(deps: RemoteReplyDeps, reply: { objectId: string; actorId: string }): Promise<boolean> {
  const current = await findRemoteReply(deps.db, reply);
  if (!current) return false;
  await deleteComment(deps.db, current.id);
  await deps.contentChanges.changed([LISTS_TAG, blogTag(current.blog_id)]);
  return true;
}

const uuid = z.uuid();
const isUuid = (id: string) => uuid.safeParse(id).success;

/** Replies are one level deep: a reply to a reply joins its thread; a comment of another blog is ignored. */
async function threadTop(db: Kysely<Database>, blogId: string, commentId: string): Promise<string | null> {
  if (!isUuid(commentId)) return null;
  const parent = await findCommentOfBlog(db, blogId, commentId);
  return parent ? (parent.parent_id ?? parent.id) : null;
}
