import { z } from 'zod';
import { BLOG_MAX_LENGTH } from './constants.js';
import { sizedImageSchema } from './image-schema.js';

/**
 * What `POST /api/blog-images` answers: where the stored image is served from (site-relative with
 * local storage, absolute with S3) and its size. The editor inserts `![alt](url)` at the cursor.
 */
export const inlineImageUploadedSchema = sizedImageSchema;
export type InlineImageUploaded = z.infer<typeof inlineImageUploadedSchema>;

/** `POST /api/blogs/preview`: the Content as typed, not yet saved (it may still be empty). */
export const blogPreviewInputSchema = z.object({
  blog: z.string().max(BLOG_MAX_LENGTH, `The content is too long: at most ${BLOG_MAX_LENGTH} characters.`),
});
export type BlogPreviewInput = z.infer<typeof blogPreviewInputSchema>;

/** The preview: exactly the `html` the saved blog would get (same renderer, same sanitiser). */
export const blogPreviewSchema = z.object({
  html: z.string(),
  readingMinutes: z.number().int(),
});
export type BlogPreview = z.infer<typeof blogPreviewSchema>;
