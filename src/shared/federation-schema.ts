import { z } from 'zod';

/** A fediverse address: `@user@host` or `user@host`. */
export const FEDIVERSE_HANDLE_MESSAGE = 'Enter a fediverse address such as @someone@example.social.';
export const fediverseHandleSchema = z
  .string({ message: FEDIVERSE_HANDLE_MESSAGE })
  .trim()
  .max(300, FEDIVERSE_HANDLE_MESSAGE)
  .regex(/^@?[A-Za-z0-9_.~-]+@[A-Za-z0-9.-]+(?::[0-9]{1,5})?$/, FEDIVERSE_HANDLE_MESSAGE);

const remoteUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), { message: 'Must be an http(s) URL.' });

/** `POST /api/federation/following`. */
export const followInputSchema = z.object({ handle: fediverseHandleSchema });
export type FollowInput = z.infer<typeof followInputSchema>;
/** `DELETE /api/federation/following`: the followed actor's id. */
export const unfollowInputSchema = z.object({ actorId: remoteUrlSchema });
export type UnfollowInput = z.infer<typeof unfollowInputSchema>;

export const followingSchema = z.object({
  actorId: z.string(),
  handle: z.string(),
  name: z.string().nullable(),
  state: z.enum(['pending', 'accepted']),
});
export type Following = z.infer<typeof followingSchema>;
export const followingListSchema = z.object({ items: z.array(followingSchema) });
export type FollowingList = z.infer<typeof followingListSchema>;

export const remotePostSchema = z.object({
  objectId: z.string(),
  actorId: z.string(),
  handle: z.string(),
  name: z.string().nullable(),
  url: z.string().nullable(),
  title: z.string(),
  /** Sanitised on arrival. */
  html: z.string(),
  summary: z.string().nullable(),
  publishedAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type RemotePost = z.infer<typeof remotePostSchema>;
export const timelineSchema = z.object({ items: z.array(remotePostSchema) });
export type Timeline = z.infer<typeof timelineSchema>;

export const REPLY_MAX_LENGTH = 5000;
/** `POST /api/federation/replies`: a reply, as plain text, to a remote post. */
export const replyInputSchema = z.object({
  inReplyTo: remoteUrlSchema,
  content: z.string().trim().min(1, 'Write a reply first.').max(REPLY_MAX_LENGTH, `A reply is at most ${REPLY_MAX_LENGTH} characters.`),
});
export type ReplyInput = z.infer<typeof replyInputSchema>;
export const replyResultSchema = z.object({ id: z.string() });
export type ReplyResult = z.infer<typeof replyResultSchema>;
