import type { Kysely } from 'kysely';
import { publicAuthorName } from '../../shared/author-name.js';
import type { ShowAuthorsBy } from '../../shared/site-settings-schema.js';
import type { SiteSettingsSource } from '../core/site-settings.js';
import type { Comment, CommentList, CommentThread } from '../../shared/comment-schema.js';
import { messages } from '../../shared/messages.js';
import { findBlogRow } from '../core/blog-rows.repository.js';
import type { Database } from '../db/schema.js';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import { renderCommentBody } from '../core/comment-body.js';
import { commentRowVisibleTo } from '../core/comment-visibility.js';
import { webLinkOrNull } from '../core/remote-links.js';
import {
  deleteCommentRow,
  findCommentForWrite,
  findCommentRow,
  findParentComment,
  insertComment,
  lockBlogForComment,
  selectBlogComments,
  updateOwnComment,
  type CommentRow,
} from './comments.repository.js';
import { parseId } from '../http/ids.js';
import { brokenConstraint } from '../db/database-errors.js';
import { enqueueJob } from '../queue/job-queue.js';
import { commentAddedJob } from '../core/site-events.js';
import { commentMailJob } from './comment-mail.service.js';

export interface CommentsDeps {
  db: Kysely<Database>;
  /** 'Show authors by': how a comment's author is named. Every route passes it; without it (imports, tests) the spec's e-mail. */
  siteSettings?: SiteSettingsSource;
}

const showAuthorsByOf = async (deps: CommentsDeps): Promise<ShowAuthorsBy> => (deps.siteSettings ? (await deps.siteSettings.get()).showAuthorsBy : 'email');

/** What a comment write changed, for the caller to invalidate and to tell people about. */
export interface CommentWrite {
  blogId: string;
  comment: Comment;
}

export const COMMENT_TEXTS = {
  noSuchComment: 'This comment does not exist.',
  notYours: 'You can only change your own comments.',
  notYoursToDelete: 'You can only delete your own comments, or comments on your own blogs.',
  replyToReply: 'Replies are one level deep: reply to the comment at the top of the thread.',
  noSuchParent: 'The comment you are replying to does not exist.',
} as const;

const noSuchBlog = () => notFound(messages.blogDoesNotExist);
const noSuchComment = () => notFound(COMMENT_TEXTS.noSuchComment);

/**
 * The blog as the viewer may see it: the same single-blog query the blog's own page uses, so
 * a blog the viewer cannot read has no readable (or writable) comments either.
 */
async function assertVisibleBlog(db: Kysely<Database>, viewerId: string | null, rawBlogId: string): Promise<string> {
  const blogId = parseId(rawBlogId, noSuchBlog);
  if (!(await findBlogRow(db, viewerId, blogId))) throw noSuchBlog();
  return blogId;
}

export async function listComments(deps: CommentsDeps, viewerId: string | null, rawBlogId: string): Promise<CommentList> {
  const blogId = await assertVisibleBlog(deps.db, viewerId, rawBlogId);
  const rows = await selectBlogComments(deps.db, blogId, viewerId);
  const showAuthorsBy = await showAuthorsByOf(deps);
  const threads = new Map<string, CommentThread>();
  for (const row of rows) if (row.parent_id === null) threads.set(row.id, { ...toCommentJson(row, showAuthorsBy), replies: [] });
  // Replies come after their parent (oldest first); one whose parent the viewer cannot see is left out with it.
  for (const row of rows) if (row.parent_id !== null) threads.get(row.parent_id)?.replies.push(toCommentJson(row, showAuthorsBy));
  const items = [...threads.values()];
  // What everyone sees is counted; the viewer's own hidden comments are not, as on the blog's cards.
  const count = items.reduce((sum, thread) => sum + (thread.hidden ? 0 : 1) + thread.replies.filter((reply) => !reply.hidden).length, 0);
  return { blogId, count, items };
}

export async function createComment(
  deps: CommentsDeps,
  userId: string,
  rawBlogId: string,
  input: { body: string; parentId?: string | null },
): Promise<CommentWrite & { blogOwnerId: string; parentAuthorId: string | null }> {
  const blogId = await assertVisibleBlog(deps.db, userId, rawBlogId);
  const html = renderCommentBody(input.body);
  const written = await deps.db.transaction().execute(async (trx) => {
    const blog = await lockBlogForComment(trx, blogId);
    if (!blog) throw noSuchBlog();
    let parentAuthorId: string | null = null;
    if (input.parentId) {
      const parent = await findParentComment(trx, blogId, input.parentId);
      // A hidden comment is there only for its author: no one else can answer it.
      if (!parent || !commentRowVisibleTo(parent, userId)) throw badRequest(COMMENT_TEXTS.noSuchParent, 'PARENT_NOT_FOUND');
      if (parent.parent_id !== null) throw badRequest(COMMENT_TEXTS.replyToReply, 'REPLY_TOO_DEEP');
      parentAuthorId = parent.user_id;
    }
    let id: string;
    try {
      id = await insertComment(trx, { blogId, userId, parentId: input.parentId ?? null, body: input.body, html });
    } catch (err) {
      throw foreignKeyError(err) ?? err;
    }
    // The e-mails about it (to the blog's author, to the one replied to) are a job of the durable queue, queued with it.
    await enqueueJob(trx, commentMailJob(id));
    // Its event for webhooks (core/site-events.ts), likewise queued with it.
    await enqueueJob(trx, commentAddedJob(id));
    return { id, blogOwnerId: blog.user_id, parentAuthorId };
  });
  const comment = await readComment(deps, written.id);
  return { blogId, comment, blogOwnerId: written.blogOwnerId, parentAuthorId: written.parentAuthorId };
}

/** The author edits; no one else, not even the blog's owner (they may only delete). */
export async function updateComment(deps: CommentsDeps, userId: string, rawId: string, input: { body: string }): Promise<CommentWrite> {
  const id = parseId(rawId, noSuchComment);
  const current = await findCommentForWrite(deps.db, id);
  if (!current || !visibleTo(current, userId)) throw noSuchComment();
  await assertVisibleBlog(deps.db, userId, current.blog_id);
  if (current.user_id !== userId) throw forbidden(COMMENT_TEXTS.notYours);
  if (!(await updateOwnComment(deps.db, id, userId, { body: input.body, html: renderCommentBody(input.body) }))) throw noSuchComment();
  return { blogId: current.blog_id, comment: await readComment(deps, id) };
}

/** The author, or the owner of the blog it is on. Its replies go with it. */
export async function deleteComment(deps: CommentsDeps, userId: string, rawId: string): Promise<{ blogId: string }> {
  const id = parseId(rawId, noSuchComment);
  const found = await findCommentForWrite(deps.db, id);
  if (!found || !visibleTo(found, userId)) throw noSuchComment();
  await deps.db.transaction().execute(async (trx) => {
    // The blog's lock first, as every comment write takes it (see `lockBlogForComment`); then the
    // comment is judged again as it is now.
    await lockBlogForComment(trx, found.blog_id);
    const current = await findCommentForWrite(trx, id);
    if (!current || !visibleTo(current, userId)) throw noSuchComment();
    if (current.user_id !== userId && current.blog_owner_id !== userId) throw forbidden(COMMENT_TEXTS.notYoursToDelete);
    if (!(await deleteCommentRow(trx, id))) throw noSuchComment();
  });
  return { blogId: found.blog_id };
}

/** A comment a moderator hid exists for its author alone. */
function visibleTo(comment: { user_id: string | null; hidden_at: Date | null; author_suspended_at: Date | null }, userId: string): boolean {
  return commentRowVisibleTo(comment, userId);
}

async function readComment(deps: CommentsDeps, id: string): Promise<Comment> {
  const row = await findCommentRow(deps.db, id);
  if (!row) throw noSuchComment();
  return toCommentJson(row, await showAuthorsByOf(deps));
}

/** Rows never leave the server as they are. */
export function toCommentJson(row: CommentRow, showAuthorsBy: ShowAuthorsBy): Comment {
  return {
    id: row.id,
    blogId: row.blog_id,
    parentId: row.parent_id,
    userId: row.user_id,
    author: commentAuthorName(row, showAuthorsBy),
    // Only ever an http(s) link, also for a row kept before that was checked on arrival.
    remoteAuthorUrl: webLinkOrNull(row.remote_author_url),
    body: row.body,
    html: row.html,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    hidden: row.hidden_at !== null || row.author_suspended_at !== null,
  };
}

/** A member as the site's 'Show authors by' names them (issue 58); a fediverse reply by its remote author's name. */
function commentAuthorName(row: CommentRow, showAuthorsBy: ShowAuthorsBy): string {
  if (row.author_email !== null && row.author_handle !== null) {
    return publicAuthorName(showAuthorsBy, { email: row.author_email, displayName: row.author_display_name, handle: row.author_handle });
  }
  return row.remote_author_name ?? '';
}

/** The blog, the parent or the commenter's account was deleted while the comment was written. */
function foreignKeyError(err: unknown) {
  const constraint = brokenConstraint(err, 'foreignKey');
  if (constraint === undefined) return undefined;
  if (constraint === 'comments_user_id_fkey') return unauthorized();
  if (constraint === 'comments_parent_fkey') return badRequest(COMMENT_TEXTS.noSuchParent, 'PARENT_NOT_FOUND');
  return noSuchBlog();
}
