import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { StoredImage } from './stored-image.js';

/** Blogs with an image but no variants yet, in id order after `afterId` (served by `blogs_image_backfill_idx`). */
export async function selectImagesWithoutVariants(db: Kysely<Database>, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('blogs')
    .select(['id', 'image_key'])
    .where('image_key', 'is not', null)
    .where('image_variant_widths', 'is', null);
  if (afterId) query = query.where('id', '>', afterId);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((row) => ({ id: row.id, imageKey: row.image_key! }));
}

/**
 * Records the variants of the image the blog still has. Returns false when the blog is gone
 * or has another image by now, so the caller can remove the files it made for nothing.
 */
export async function saveImageVariants(db: Kysely<Database>, id: string, image: StoredImage): Promise<boolean> {
  const result = await db
    .updateTable('blogs')
    .set({ image_width: image.width, image_height: image.height, image_variant_widths: image.variantWidths })
    .where('id', '=', id)
    .where('image_key', '=', image.key)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
