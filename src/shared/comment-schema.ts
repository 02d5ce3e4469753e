import { z } from 'zod';
import { COMMENT_MAX_LENGTH } from './constants.js';
import { messages } from './messages.js';
import { requiredText } from './required-text.js';

/** A comment's text, as the form and `PATCH /api/comments/:id` take it. */
export const commentBodySchema = requiredText(messages.addComment, COMMENT_MAX_LENGTH, `The comment is too long: at most ${COMMENT_MAX_LENGTH} characters.`);

export const commentInputSchema = z.object({ body: commentBodySchema });
export type CommentInput = z.infer<typeof commentInputSchema>;

/** `POST /api/blogs/:id/comments`: a comment, or with `parentId` a reply to a top-level comment. */
export const newCommentInputSchema = commentInputSchema.extend({
  parentId: z.uuid({ message: 'The comment you are replying to does not exist.' }).nullish(),
});
export type NewCommentInput = z.infer<typeof newCommentInputSchema>;

/**
 * A comment as the API returns it. `author` is the commenter's e-mail, as blogs show theirs; for a
 * reply from the fediverse (`userId` null) it is the remote author's name, and `remoteAuthorUrl`
 * their profile page;
 * `body` is the Markdown source, `html` its sanitised rendering (no headings, no images).
 * `hidden` is true only in answers to the comment's own author, who still sees a comment a
 * moderator has hidden from everyone else.
 */
export const commentSchema = z.object({
  id: z.string(),
  blogId: z.string(),
  parentId: z.string().nullable(),
  userId: z.string().nullable(),
  author: z.string(),
  remoteAuthorUrl: z.string().nullable(),
  body: z.string(),
  html: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  hidden: z.boolean(),
});
export type Comment = z.infer<typeof commentSchema>;

/** A top-level comment with its replies, oldest first. */
export const commentThreadSchema = commentSchema.extend({ replies: z.array(commentSchema) });
export type CommentThread = z.infer<typeof commentThreadSchema>;

/** `GET /api/blogs/:id/comments`: the threads oldest first, and how many comments everyone sees. */
export const commentListSchema = z.object({
  blogId: z.string(),
  count: z.number().int(),
  items: z.array(commentThreadSchema),
});
export type CommentList = z.infer<typeof commentListSchema>;

/** `GET/PUT /api/settings/comment-emails`: whether the user is e-mailed about comments and replies. */
export const commentEmailSettingSchema = z.object({ enabled: z.boolean() });
export type CommentEmailSetting = z.infer<typeof commentEmailSettingSchema>;

/** `POST /api/comment-emails/unsubscribe`: the signed token from an e-mail's unsubscribe link. */
export const unsubscribeInputSchema = z.object({ token: z.string().min(1).max(500) });
