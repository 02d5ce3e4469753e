import { type Kysely, sql } from 'kysely';

/**
 * Integrations (issue 60, docs/apis.md): a named pair of keys for Ghost's APIs. The Content API
 * key is looked up by its SHA-256 (`content_key_hash`) and kept encrypted with the site's secret
 * so /admin can show it again; the Admin API key is its id (`admin_key_id`, the JWT's `kid`) and
 * its secret, kept only encrypted (a JWT is verified with the secret itself), shown once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('content_key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('content_key_encrypted', 'text', (col) => col.notNull())
    .addColumn('admin_key_id', 'text', (col) => col.notNull().unique())
    .addColumn('admin_secret_encrypted', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('integrations').execute();
}
