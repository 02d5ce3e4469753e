import { type Kysely, sql } from 'kysely';

/**
 * Indexes that keep the feeds and the sitemap cheap at any number of blogs:
 * - the site's newest blogs (RSS) are the first rows of `blogs_newest_idx`;
 * - one author's newest are the first rows of their range in `blogs_user_newest_idx`, which also
 *   serves everything `blogs_user_id_idx` did (its leading column), so that one goes;
 * - sitemap parts read id ranges with `updated_at` from `blogs_sitemap_idx` alone (index-only
 *   scans), never the wide rows, whose bodies made Postgres scan and sort the table instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index blogs_newest_idx on blogs (created_at desc, id desc)`.execute(db);
  await sql`create index blogs_user_newest_idx on blogs (user_id, created_at desc, id desc)`.execute(db);
  await db.schema.dropIndex('blogs_user_id_idx').execute();
  await sql`create index blogs_sitemap_idx on blogs (id) include (updated_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_sitemap_idx').execute();
  await db.schema.createIndex('blogs_user_id_idx').on('blogs').column('user_id').execute();
  await db.schema.dropIndex('blogs_user_newest_idx').execute();
  await db.schema.dropIndex('blogs_newest_idx').execute();
}
