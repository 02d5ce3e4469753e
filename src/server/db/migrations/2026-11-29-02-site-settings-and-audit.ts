import { type Kysely, sql } from 'kysely';

/**
 * The site's settings (issue 44) are one row of JSON, checked by the shared zod schema when
 * written and read; a fresh site has no row and reads its seeds (`SITE_NAME`, ...) from the
 * configuration. The audit log keeps every admin action: who (the account, and its address as it
 * was, kept when the account is deleted), what, when, and the subject's state before and after.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('site_settings')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('settings', 'jsonb', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('actor_id', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('subject', 'text')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_created_at').on('audit_log').columns(['created_at desc', 'id desc']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('site_settings').execute();
}
