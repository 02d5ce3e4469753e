import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Which of `keys` a row names as an image: a blog's cover image, the site's logo or icon, or an image uploaded from the
 * editor (held by a blog or not yet: an unclaimed upload is the inline sweep's to remove, with
 * its row). Read in one statement, so both tables are seen at the same moment.
 */
export async function selectNamedImageKeys(db: Kysely<Database>, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('blogs')
    .select('image_key as key')
    .where('image_key', 'in', keys)
    .union(db.selectFrom('inline_images').select('key').where('key', 'in', keys))
    // The site's logo and icon (issue 44), named by its settings.
    .union(
      db
        .selectFrom(sql<{ key: string }>`(select settings->>'logoImageId' as key from site_settings union all select settings->>'iconImageId' from site_settings)`.as('site_images'))
        .select('site_images.key')
        .where('site_images.key', 'in', keys),
    )
    .execute();
  return new Set(rows.map((row) => row.key).filter((key): key is string => key !== null));
}

/** Unclaimed editor uploads older than `before`, for a dry run (nothing locked, nothing changed). */
export async function selectUnclaimedInlineImageKeys(db: Kysely<Database>, before: Date): Promise<string[]> {
  const rows = await db.selectFrom('inline_images').select('key').where('blog_id', 'is', null).where('created_at', '<', before).orderBy('created_at').execute();
  return rows.map((row) => row.key);
}
