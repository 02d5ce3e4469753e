import { z } from 'zod';
import { pageSchemaOf } from './page-schema.js';

/** Tags a blog may carry. */
export const MAX_TAGS = 5;
/** Characters in one tag. */
export const TAG_MAX_LENGTH = 30;
/** Tags the editor suggests for what is being typed. */
export const TAG_SUGGESTION_COUNT = 8;
/** Tags on one page of `/tags`. */
export const TAGS_PAGE_SIZE = 100;

/** Lowercase words (letters and digits of any script), joined by single hyphens: `react`, `web-dev`, `café`. */
const TAG_PATTERN = /^[\p{Ll}\p{Lo}\p{Lm}\p{N}\p{M}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{N}\p{M}]+)*$/u;

export const tagMessages = {
  tooMany: `Add at most ${MAX_TAGS} tags.`,
  badTag: (tag: string) =>
    `"${tag.slice(0, TAG_MAX_LENGTH + 10)}" is not a tag: use lowercase words of letters and digits, joined by hyphens, at most ${TAG_MAX_LENGTH} characters.`,
} as const;

/** A tag as written, made canonical: NFC and lowercase (so `React` and `react` are one tag). */
export function normaliseTag(tag: string): string {
  return tag.normalize('NFC').toLowerCase();
}

export function isTag(tag: string): boolean {
  return tag.length <= TAG_MAX_LENGTH && TAG_PATTERN.test(tag);
}

/** One tag in a URL or a query (`/tag?name=`, `?tag=`), made canonical; anything else names no tag. */
export const tagNameSchema = z.string().transform(normaliseTag).refine(isTag, { message: 'There is no such tag.' });

/**
 * The Tags field as typed (the form) or sent (`tags`, a form field of the blog's multipart body):
 * tags separated by commas or spaces, made lowercase; repeats are dropped, the writer's order is
 * kept. Refused: a tag that is not lowercase words joined by hyphens, or more than `MAX_TAGS`.
 */
export const tagsInputSchema = z
  .string()
  .transform((text) => [...new Set(text.split(/[\s,]+/).filter(Boolean).map(normaliseTag))])
  .superRefine((tags, ctx) => {
    const bad = tags.find((tag) => !isTag(tag));
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: tagMessages.badTag(bad) });
    else if (tags.length > MAX_TAGS) ctx.addIssue({ code: 'custom', message: tagMessages.tooMany });
  });

/** A blog's tags as the API returns them: the writer's order. */
export const blogTagsSchema = z.array(z.string());

/** `/api/tags`: one page of the tags of public blogs, the most used first. */
export const tagsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

export const tagCountSchema = z.object({
  name: z.string(),
  /** Public blogs carrying it (drafts, hidden blogs and suspended authors' never count). */
  blogs: z.number().int(),
});
export type TagCount = z.infer<typeof tagCountSchema>;

export const tagsPageSchema = pageSchemaOf(tagCountSchema);
export type TagsPage = z.infer<typeof tagsPageSchema>;

/** `/api/tag-suggestions?prefix=`: the most used tags starting with what is being typed. */
export const tagSuggestionsQuerySchema = z.object({
  prefix: z.string().max(TAG_MAX_LENGTH).default(''),
});

export const tagSuggestionsSchema = z.object({ items: z.array(tagCountSchema) });
export type TagSuggestions = z.infer<typeof tagSuggestionsSchema>;
