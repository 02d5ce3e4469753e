import { z } from 'zod';
import { blogIdSchema } from './blog-schema.js';
import { tagNameSchema } from './tag-schema.js';

/**
 * `/rss.xml`, `/atom.xml` and `/feed.json`, each `?author={userId}` for one author's or
 * `?tag={tag}` for one tag's (not both): the shapes are checked before the database is asked.
 */
export const feedQuerySchema = z
  .object({
    author: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/)
      .optional(),
    tag: tagNameSchema.optional(),
  })
  .refine((query) => query.author === undefined || query.tag === undefined);

/** `/sitemap-blogs.xml?from={blogId}`: a part starts at a blog id (keyset paging by id); no id, at the first. */
export const sitemapBlogsQuerySchema = z.object({
  from: blogIdSchema.optional(),
});
