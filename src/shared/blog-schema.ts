import { z } from 'zod';
import { pageSchemaOf } from './page-schema.js';
import { BLOG_MAX_LENGTH, SEARCH_TERM_MAX_LENGTH, TITLE_MAX_LENGTH } from './constants.js';
import { sizedImageSchema } from './image-schema.js';
import { messages } from './messages.js';
import { publicProfileSchema } from './profile-schema.js';
import { requiredText } from './required-text.js';
import { blogTagsSchema, tagNameSchema } from './tag-schema.js';

/** The text fields of a blog, as the create and edit forms and `POST/PATCH /api/blogs` take them. */
export const blogInputSchema = z.object({
  title: requiredText(messages.addTitle, TITLE_MAX_LENGTH, `The title is too long: at most ${TITLE_MAX_LENGTH} characters.`),
  blog: requiredText(messages.addContent, BLOG_MAX_LENGTH, `The content is too long: at most ${BLOG_MAX_LENGTH} characters.`),
});
export type BlogInput = z.infer<typeof blogInputSchema>;

/**
 * `published` (the default: the spec's Submit publishes) or `draft`, seen by its owner only.
 * `POST /api/blogs` and `PATCH /api/blogs/:id` take it as the form field `status`; a PATCH
 * without it keeps the blog's status.
 */
export const blogStatusSchema = z.enum(['draft', 'published'], { message: 'The status must be draft or published.' });
export type BlogStatus = z.infer<typeof blogStatusSchema>;

/**
 * The form field `publishAt` of `POST /api/blogs` and `PATCH /api/blogs/:id`: a date and time with
 * its offset (ISO 8601) schedules the blog (it stays a draft until then; a time already past
 * publishes at once); an empty value unschedules it; absent, a PATCH keeps the schedule.
 */
export const SCHEDULE_MAX_DAYS = 366;
export const publishAtSchema = z.union([
  z.literal(''),
  z.iso
    .datetime({ offset: true, message: 'The time to publish must be a date and time.' })
    .refine((value) => Date.parse(value) < Date.now() + SCHEDULE_MAX_DAYS * 86_400_000, `A blog can be scheduled at most ${SCHEDULE_MAX_DAYS} days ahead.`),
]);

/**
 * A draft's text: saved while it is being written (autosave), so a title or content may still be
 * empty; the length caps are the published ones. Publishing checks `blogInputSchema`.
 */
export const blogDraftInputSchema = z.object({
  title: z.string().trim().max(TITLE_MAX_LENGTH, `The title is too long: at most ${TITLE_MAX_LENGTH} characters.`),
  blog: z.string().trim().max(BLOG_MAX_LENGTH, `The content is too long: at most ${BLOG_MAX_LENGTH} characters.`),
});

export const blogIdSchema = z.uuid({ message: messages.blogDoesNotExist });

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

/**
 * The home list's orders: 'top' (the spec's: best rated, then newest), 'new' (newest first) and
 * 'hot' (rating with time decay, see the `hot_score` migration).
 */
export const blogSortSchema = z.enum(['top', 'new', 'hot']);
export type BlogSort = z.infer<typeof blogSortSchema>;
export const blogListQuerySchema = pageQuerySchema.extend({
  sort: blogSortSchema.default('top'),
  /** Only the blogs carrying this tag (`/tag?name=`'s list). */
  tag: tagNameSchema.optional(),
});

/**
 * Where a search looks: `title` (the spec's search, the default) or `all`, titles and the text
 * of the blogs ('Search in text too'), with phrases in quotes, `-word` to leave out, ranking
 * and snippets.
 */
export const searchInSchema = z.enum(['title', 'all']);
export type SearchIn = z.infer<typeof searchInSchema>;

export const searchQuerySchema = z.object({
  searchTerm: z.string().max(SEARCH_TERM_MAX_LENGTH, `The search term is too long: at most ${SEARCH_TERM_MAX_LENGTH} characters.`).default(''),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  in: searchInSchema.default('title'),
});

export const voteDirectionSchema = z.enum(['up', 'down']);
export type VoteDirection = z.infer<typeof voteDirectionSchema>;
export const voteInputSchema = z.object({ direction: voteDirectionSchema });

/**
 * A blog's image with what the page needs to load the right size without a layout shift:
 * its own `width` and `height`, a `srcset` of every stored width (the largest is `url`
 * itself, nothing upscaled), and `ogUrl`, a 1200 x 630 crop for Open Graph. URLs are
 * site-relative with local storage and absolute with S3.
 */
export const blogImageSchema = sizedImageSchema.extend({
  srcset: z.string(),
  ogUrl: z.string(),
});
export type BlogImage = z.infer<typeof blogImageSchema>;

/**
 * A blog as the API returns it. `author` names its owner as the site's 'Show authors by' says: the
 * e-mail, as the spec shows it, or the display name (else handle), never the e-mail then. `blog` is
 * the Markdown source; `html` its sanitised rendering, `excerpt` its plain text cut near 200
 * characters, `readingMinutes` at least 1.
 * `image` is null when there is no image, and also for an image stored before sizes were
 * kept until the start-up backfill reaches it; `imageUrl` is set whenever there is an image.
 */
export const blogSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Its readable address is `/blog/<slug>` (issue 58): made from the title, unique on the site, its canonical URL. */
  slug: z.string(),
  blog: z.string(),
  html: z.string(),
  excerpt: z.string(),
  readingMinutes: z.number().int().min(1),
  author: z.string(),
  userId: z.string(),
  imageUrl: z.string().nullable(),
  image: blogImageSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  rating: z.number().int(),
  myVote: voteDirectionSchema.nullable(),
  /** Hidden by a moderator (or its author suspended): only its author receives it, with the notice. */
  hidden: z.boolean(),
  /** Comments everyone can see (hidden ones are not counted). */
  commentCount: z.number().int(),
  status: blogStatusSchema,
  /** Up to 5 lowercase tags, in the writer's order. */
  tags: blogTagsSchema,
  /** A draft scheduled to become public at this time (ISO 8601, UTC); null when it is not scheduled. */
  publishAt: z.string().nullable(),
  /** When its writer submitted the draft for an editor's review (issue 44); null unless it waits for one (issue 59). */
  submittedAt: z.string().nullable(),
});
export type Blog = z.infer<typeof blogSchema>;

/**
 * A blog as lists show it (home, search, author pages): everything a card needs, without the
 * Markdown source and its HTML, which can be long (the card shows `excerpt`; the whole text is
 * one click away).
 */
export const blogSummarySchema = blogSchema.omit({ blog: true, html: true });
export type BlogSummary = z.infer<typeof blogSummarySchema>;

export const blogPageSchema = pageSchemaOf(blogSummarySchema);
export type BlogPage = z.infer<typeof blogPageSchema>;

/**
 * A piece of a search-in-text snippet: plain text, and whether it is one of the matched words.
 * The snippet is data, never markup: the page renders each part as text (a match in `<mark>`).
 */
export const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

/** A search result: a card's fields and, for a search in text, the words around the matches in the blog's text. */
export const searchResultSchema = blogSummarySchema.extend({
  snippet: z.array(snippetPartSchema).optional(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchPageSchema = blogPageSchema.extend({
  items: z.array(searchResultSchema),
  total: z.number().int(),
});
export type SearchPage = z.infer<typeof searchPageSchema>;

/** `/api/authors/:id/blogs`: one page of an author's blogs, newest first, and who they are. */
export const authorPageSchema = blogPageSchema.extend({
  /**
   * `name` as the site's 'Show authors by' names them (the heading, the title); the e-mail, as the
   * spec's cards show it, only while the site shows authors by e-mail; and the profile (handle,
   * display name, bio).
   */
  author: publicProfileSchema.extend({ id: z.string(), name: z.string(), email: z.string().optional() }),
});
export type AuthorPage = z.infer<typeof authorPageSchema>;

export const voteResultSchema = z.object({
  blogId: z.string(),
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  rating: z.number().int(),
  myVote: voteDirectionSchema.nullable(),
});
export type VoteResult = z.infer<typeof voteResultSchema>;

/**
 * `GET /api/blogs/by-slug/:slug` (issue 58): the blog a readable address names, and its current
 * slug; it differs from the one asked for when that is an old address (the page answers 301).
 */
export const blogAddressSchema = z.object({ id: z.string(), slug: z.string() });
export type BlogAddress = z.infer<typeof blogAddressSchema>;
