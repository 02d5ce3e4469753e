import { publicAuthorName } from '../../shared/author-name.js';
import type { Blog, BlogImage, BlogSummary } from '../../shared/blog-schema.js';
import type { ShowAuthorsBy } from '../../shared/site-settings-schema.js';
import { ogImageKey, variantImageKey } from '../storage/image-key.js';
import type { ImageStorage } from '../storage/storage.js';
import type { BlogRow, BlogSummaryRow } from './blog-rows.repository.js';
import { renderBlogBody } from './blog-body.js';

/** Maps a row to the API's blog; rows never leave the server as they are. */
export function toBlogJson(row: BlogRow, storage: ImageStorage, showAuthorsBy: ShowAuthorsBy): Blog {
  // Rendered on write; a row the start-up backfill has not reached yet is rendered here instead.
  const rendered =
    row.html !== null && row.excerpt !== null && row.reading_minutes !== null
      ? { html: row.html, excerpt: row.excerpt, readingMinutes: row.reading_minutes }
      : renderBlogBody(row.body, storage);
  // Only the excerpt cleared to be made again: the stored HTML keeps its inline images' sizes.
  if (row.html !== null && row.excerpt === null) rendered.html = row.html;
  return { ...summaryFields(row, storage, showAuthorsBy), blog: row.body, ...rendered };
}

/** A row of a list to the API's list item: the card's fields, without the source and its HTML. */
export function toBlogSummaryJson(row: BlogSummaryRow, storage: ImageStorage, showAuthorsBy: ShowAuthorsBy): BlogSummary {
  const fields = summaryFields(row, storage, showAuthorsBy);
  if (row.excerpt !== null && row.reading_minutes !== null) return { ...fields, excerpt: row.excerpt, readingMinutes: row.reading_minutes };
  // Not rendered yet (the start-up backfill has not reached it): the query brought the source instead.
  const { excerpt, readingMinutes } = renderBlogBody(row.unrendered_body ?? '', storage);
  return { ...fields, excerpt, readingMinutes };
}

type CommonRow = Omit<BlogSummaryRow, 'unrendered_body' | 'excerpt' | 'reading_minutes'>;

function summaryFields(row: CommonRow, storage: ImageStorage, showAuthorsBy: ShowAuthorsBy): Omit<BlogSummary, 'excerpt' | 'readingMinutes'> {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    // The one place a blog's author is named for the API: the site's 'Show authors by' (issue 58).
    author: publicAuthorName(showAuthorsBy, { email: row.author, displayName: row.author_display_name, handle: row.author_handle }),
    userId: row.user_id,
    imageUrl: row.image_key ? storage.publicUrl(row.image_key) : null,
    image: toBlogImage(row, storage),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    rating: row.rating,
    commentCount: row.comment_count,
    myVote: row.my_vote,
    status: row.status,
    tags: row.tags,
    publishAt: row.publish_at ? new Date(row.publish_at).toISOString() : null,
    submittedAt: row.submitted_at ? new Date(row.submitted_at).toISOString() : null,
    // Only its author is ever shown a hidden blog; they see why.
    hidden: row.hidden_at !== null || row.author_suspended_at !== null,
  };
}

type ImageColumns = Pick<BlogRow, 'image_key' | 'image_width' | 'image_height' | 'image_variant_widths'>;

/** Null until the image's variants exist: a srcset must only name files that are there. */
export function toBlogImage(row: ImageColumns, storage: ImageStorage): BlogImage | null {
  const { image_key: key, image_width: width, image_height: height, image_variant_widths: widths } = row;
  if (!key || !width || !height || !widths) return null;
  const url = storage.publicUrl(key);
  const candidates = [...widths.map((w) => `${storage.publicUrl(variantImageKey(key, w))} ${w}w`), `${url} ${width}w`];
  return { url, width, height, srcset: candidates.join(', '), ogUrl: storage.publicUrl(ogImageKey(key)) };
}
