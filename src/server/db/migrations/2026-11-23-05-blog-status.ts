import { type Kysely, sql } from 'kysely';

/**
 * Drafts: a blog is `published` (every blog so far, and the default, so the spec's flow is
 * unchanged) or a `draft` only its owner sees. Every public query filters on
 * `status = 'published'` (`blog-visibility.ts`), so the btree indexes those queries read are
 * rebuilt under the same names carrying `status` as an included column: the home list's offset
 * subquery and the sitemap stay index-only scans, and the feeds ordered index scans, each
 * filtering the few drafts out of the index entries without visiting the table.
 *
 * Neither partial indexes (`where status = 'published'`) nor `status` as a key column: either
 * made a full scan of that btree look cheaper to the planner than the title's GIN index for
 * search on small tables.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('blogs')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('published').check(sql`status in ('draft', 'published')`))
    .execute();

  await db.schema.dropIndex('blogs_home_order_idx').execute();
  await sql`create index blogs_home_order_idx on blogs (rating desc, created_at desc, id desc) include (status)`.execute(db);
  await db.schema.dropIndex('blogs_newest_idx').execute();
  await sql`create index blogs_newest_idx on blogs (created_at desc, id desc) include (status)`.execute(db);
  await db.schema.dropIndex('blogs_sitemap_idx').execute();
  await sql`create index blogs_sitemap_idx on blogs (id) include (updated_at, status)`.execute(db);
  await db.schema.dropIndex('blogs_user_newest_idx').execute();
  await sql`create index blogs_user_newest_idx on blogs (user_id, created_at desc, id desc) include (status)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_user_newest_idx').execute();
  await sql`create index blogs_user_newest_idx on blogs (user_id, created_at desc, id desc)`.execute(db);
  await db.schema.dropIndex('blogs_sitemap_idx').execute();
  await sql`create index blogs_sitemap_idx on blogs (id) include (updated_at)`.execute(db);
  await db.schema.dropIndex('blogs_newest_idx').execute();
  await sql`create index blogs_newest_idx on blogs (created_at desc, id desc)`.execute(db);
  await db.schema.dropIndex('blogs_home_order_idx').execute();
  await sql`create index blogs_home_order_idx on blogs (rating desc, created_at desc, id desc)`.execute(db);
  await db.schema.alterTable('blogs').dropColumn('status').execute();
}
