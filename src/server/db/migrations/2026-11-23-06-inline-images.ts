import { type Kysely, sql } from 'kysely';

/**
 * Images uploaded from the editor to sit inside a blog's text. Each row is one stored image
 * (its files are `key` and its variants), uploaded by `user_id`. `blog_id` is null from the
 * upload until a saved blog's text names the image; a blog's deletion sets it back to null, so
 * the orphan sweep (rows unclaimed for longer than the grace period) removes what nothing uses.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('inline_images')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('blog_id', 'uuid', (col) => col.references('blogs.id').onDelete('set null'))
    .addColumn('width', 'integer', (col) => col.notNull().check(sql`width > 0`))
    .addColumn('height', 'integer', (col) => col.notNull().check(sql`height > 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('inline_images_blog_id_idx').on('inline_images').column('blog_id').execute();
  await db.schema.createIndex('inline_images_user_id_idx').on('inline_images').column('user_id').execute();
  // The sweep's search: unclaimed uploads, oldest first.
  await sql`create index inline_images_unclaimed_idx on inline_images (created_at) where blog_id is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inline_images').execute();
}
