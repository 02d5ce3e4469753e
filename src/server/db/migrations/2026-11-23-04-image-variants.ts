import { type Kysely, sql } from 'kysely';

/**
 * What the page needs to size a blog's image: its own width and height, and the widths of
 * the smaller copies stored beside it. Columns on `blogs` rather than a table: a blog has at
 * most one image, and every listing reads these with the row, so a join would buy nothing.
 * `image_variant_widths` is null for images stored before this migration until the
 * backfill has made their copies (an empty array means the image is too small for any).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('blogs')
    .addColumn('image_width', 'integer', (col) => col.check(sql`image_width > 0`))
    .addColumn('image_height', 'integer', (col) => col.check(sql`image_height > 0`))
    .addColumn('image_variant_widths', sql`integer[]`)
    .execute();
  // The backfill looks for these at every start; once it is done the index is empty.
  await sql`create index blogs_image_backfill_idx on blogs (id) where image_key is not null and image_variant_widths is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index blogs_image_backfill_idx`.execute(db);
  await db.schema.alterTable('blogs').dropColumn('image_width').dropColumn('image_height').dropColumn('image_variant_widths').execute();
}
