import { type Kysely, sql } from 'kysely';

/**
 * Excerpts leave images' descriptions out since this migration (issue 58: the editor wrote the
 * file's name as the description, and "…stays open. chart. It is…" showed on cards and in feeds).
 * Only a blog whose source has an image can have one in its excerpt: those excerpts are cleared,
 * and the start-up backfill (`renderUnrenderedBlogs`) makes them again from the source, as after
 * `2026-11-25-05-rebuild-excerpts`. The HTML stays: the page keeps each image's description.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update blogs set excerpt = null where excerpt is not null and strpos(body, '![') > 0`.execute(db);
}

export async function down(): Promise<void> {
  // The excerpts made without descriptions stay: the older ones cannot be told apart from them.
}
