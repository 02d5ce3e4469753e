import { type Kysely, sql } from 'kysely';

/**
 * Excerpts keep the blocks of a post apart since this migration (a heading ends with a full stop,
 * list items are separated). Nothing stored tells an excerpt made the old way from a new one, so
 * the stored excerpts are cleared here and the start-up backfill (`renderUnrenderedBlogs`) makes
 * them again from each blog's source before the server listens; a read in between makes the
 * excerpt from the source, as for any row not yet rendered. The HTML stays: it is unchanged, and
 * it carries the sizes of inline images that only a save knows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update blogs set excerpt = null where excerpt is not null`.execute(db);
  // The backfill looks for rows without an excerpt; once it is done this index is nearly empty.
  await sql`create index blogs_without_excerpt_idx on blogs (id) where excerpt is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_without_excerpt_idx').execute();
}
