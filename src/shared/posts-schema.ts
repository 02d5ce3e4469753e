import { z } from 'zod';
import { pageSchemaOf } from './page-schema.js';
import { TITLE_MAX_LENGTH } from './constants.js';

/**
 * Posts (issue 59): every blog in one list for editors and above, a writer's own blogs for
 * authors and contributors; and the review queue's 'Send back' with a note.
 */

/** A blog's state in words, as the list shows it and its 'Status' filter takes it. */
export const postStatusSchema = z.enum(['draft', 'submitted', 'scheduled', 'published', 'hidden']);
export type PostStatus = z.infer<typeof postStatusSchema>;

export const POST_STATUS_LABELS: Record<PostStatus, string> = {
  draft: 'Draft',
  submitted: 'Submitted for review',
  scheduled: 'Scheduled',
  published: 'Published',
  hidden: 'Hidden',
};

export const POSTS_PAGE_SIZE = 20;

/** `GET /api/posts`: filters by status, author (an account id), tag and a search in titles; paged. */
export const postsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  status: postStatusSchema.optional(),
  author: z.string().max(100).optional(),
  tag: z.string().max(100).optional(),
  q: z.string().trim().max(TITLE_MAX_LENGTH).optional(),
  /** `true`: only the visitor's own blogs, whatever their role ('All my blogs' on My Drafts). */
  mine: z.enum(['true']).optional(),
});
export type PostsQuery = z.infer<typeof postsQuerySchema>;

/** What the visitor may do with one row, decided by the server from their role and whose blog it is. */
export const postActionsSchema = z.object({
  edit: z.boolean(),
  publish: z.boolean(),
  unpublish: z.boolean(),
  delete: z.boolean(),
});
export type PostActions = z.infer<typeof postActionsSchema>;

/** A writer as Posts names them: their name as the site shows it, handle and e-mail (the list is for staff and the writer themselves). */
export const postAuthorSchema = z.object({ id: z.string(), name: z.string(), handle: z.string().nullable(), email: z.string() });
export type PostAuthor = z.infer<typeof postAuthorSchema>;

/** The most writers the 'Author' filter offers; past it, `hasMore` says the list is cut. */
export const POST_AUTHORS_MAX = 500;

/** `GET /api/posts/authors`: every account that has a blog, by name, for the 'Author' filter (whatever page Posts is on). */
export const postAuthorsSchema = z.object({ items: z.array(postAuthorSchema), hasMore: z.boolean() });
export type PostAuthors = z.infer<typeof postAuthorsSchema>;

export const postRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  status: postStatusSchema,
  author: postAuthorSchema,
  tags: z.array(z.string()),
  updatedAt: z.string(),
  /** When it was submitted for review; null unless it waits for an editor. */
  submittedAt: z.string().nullable(),
  publishAt: z.string().nullable(),
  actions: postActionsSchema,
});
export type PostRow = z.infer<typeof postRowSchema>;

export const postsPageSchema = pageSchemaOf(postRowSchema).extend({
  /** Whether the list holds every writer's blogs (editors and above) or only the visitor's own. */
  scope: z.enum(['all', 'own']),
});
export type PostsPage = z.infer<typeof postsPageSchema>;

/** The longest note an editor sends back with a draft. */
export const REVIEW_NOTE_MAX_LENGTH = 2_000;

export const sendBackSchema = z.object({
  note: z
    .string()
    .trim()
    .min(1, 'Write a note: what should the writer change?')
    .max(REVIEW_NOTE_MAX_LENGTH, `The note is too long: at most ${REVIEW_NOTE_MAX_LENGTH} characters.`),
});
export type SendBack = z.infer<typeof sendBackSchema>;

/** Who submitted a draft for review, and when: what an editor opening it sees (`GET /api/posts/:id/review`). */
export const reviewStateSchema = z.object({
  submittedAt: z.string().nullable(),
  submittedBy: z.object({ name: z.string(), email: z.string() }),
});
export type ReviewState = z.infer<typeof reviewStateSchema>;
