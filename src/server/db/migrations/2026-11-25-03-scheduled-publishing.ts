import { type Kysely, sql } from 'kysely';

/**
 * Scheduled publishing: a draft with `publish_at` is scheduled; the durable queue's
 * `publish-scheduled` job makes it public at that time (`blogs/scheduled-publishing.ts`). Until
 * then it is a draft in every respect (seen by its owner only).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table blogs add column publish_at timestamptz`.execute(db);
  await sql`alter table blogs add constraint blogs_publish_at_draft check (publish_at is null or status = 'draft')`.execute(db);
}
