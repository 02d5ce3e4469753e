import { type Kysely, sql } from 'kysely';

// The RSS feed (and any newest-first list) reads the newest blogs; without this index that is a
// scan and sort of the whole table on every request.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index blogs_newest_idx on blogs (created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_newest_idx').execute();
}
