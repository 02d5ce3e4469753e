import { type Kysely, sql } from 'kysely';

/**
 * A blog's Markdown is rendered when it is written, not on every read: the sanitised HTML, a
 * plain-text excerpt and the reading time are stored beside the source. Rows written before this
 * migration have them null until the start-up backfill renders them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('blogs')
    .addColumn('html', 'text')
    .addColumn('excerpt', 'text')
    .addColumn('reading_minutes', 'integer')
    .execute();
  // The backfill looks for rows still to render; once it is done this index is nearly empty.
  await sql`create index blogs_unrendered_idx on blogs (id) where html is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_unrendered_idx').execute();
  await db.schema.alterTable('blogs').dropColumn('html').dropColumn('excerpt').dropColumn('reading_minutes').execute();
}
