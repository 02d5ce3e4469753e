import type { Kysely, Transaction } from 'kysely';
import type { BlogStatus, Database } from '../db/schema.js';
import type { StoredImage } from '../images/stored-image.js';
import type { RenderedMarkdown } from '../markdown/render-markdown.js';

/** What a blog's rendering sets: its page's HTML, excerpt, reading time and searchable text. */
export const renderedColumns = (rendered: RenderedMarkdown) => ({
  html: rendered.html,
  excerpt: rendered.excerpt,
  reading_minutes: rendered.readingMinutes,
  body_text: rendered.text,
});

/** What a blog's cover image sets (null: no cover). */
export function imageColumns(image: StoredImage | null) {
  return {
    image_key: image?.key ?? null,
    image_width: image?.width ?? null,
    image_height: image?.height ?? null,
    image_variant_widths: image?.variantWidths ?? null,
  };
}

/** A new blog's row, written and rendered (the editor's and the import's); its id. */
export async function insertBlog(
  db: Kysely<Database> | Transaction<Database>,
  row: { userId: string; title: string; slug?: string; body: string; status: BlogStatus; publishAt: Date | null; tags: string[]; rendered: RenderedMarkdown; image: StoredImage | null },
): Promise<string> {
  const inserted = await db
    .insertInto('blogs')
    .values({
      user_id: row.userId,
      title: row.title,
      // Given by an import (its old address); else the `blogs_slug` trigger makes it from the title, unique.
      ...(row.slug ? { slug: row.slug } : {}),
      body: row.body,
      status: row.status,
      tags: row.tags,
      publish_at: row.publishAt,
      ...renderedColumns(row.rendered),
      ...imageColumns(row.image),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}
