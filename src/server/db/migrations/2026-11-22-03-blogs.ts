import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('blogs')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('image_key', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('upvotes', 'integer', (col) => col.notNull().defaultTo(0).check(sql`upvotes >= 0`))
    .addColumn('downvotes', 'integer', (col) => col.notNull().defaultTo(0).check(sql`downvotes >= 0`))
    .addColumn('rating', 'integer', (col) => col.notNull().generatedAlwaysAs(sql`upvotes - downvotes`).stored())
    .addColumn('title_tsv', sql`tsvector`, (col) =>
      col.notNull().generatedAlwaysAs(sql`to_tsvector('english', title)`).stored(),
    )
    .execute();

  // The home order: rating desc, then newest, then id, so keyset and offset paging stay cheap.
  await sql`create index blogs_home_order_idx on blogs (rating desc, created_at desc, id desc)`.execute(db);
  await sql`create index blogs_title_tsv_idx on blogs using gin (title_tsv)`.execute(db);
  await db.schema.createIndex('blogs_user_id_idx').on('blogs').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blogs').execute();
}
