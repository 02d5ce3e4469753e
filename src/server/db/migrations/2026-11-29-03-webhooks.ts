import { type Kysely, sql } from 'kysely';

/**
 * Webhooks (issue 44, docs/webhooks.md): an administrator's subscription of a target URL to one
 * event, with the secret its deliveries are signed with; and one row per delivery of one event to
 * one webhook, unique by the two (a retried event makes no second delivery), keeping what was
 * sent, how it went (attempts, the last HTTP status, the start of the last answer) and when.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('target_url', 'text', (col) => col.notNull())
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('created_by_email', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('webhooks_event').on('webhooks').column('event').execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('webhook_id', 'text', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending').check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_http_status', 'integer')
    .addColumn('last_response', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addUniqueConstraint('webhook_deliveries_one_per_event', ['webhook_id', 'event_id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_recent').on('webhook_deliveries').columns(['webhook_id', 'created_at desc']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
