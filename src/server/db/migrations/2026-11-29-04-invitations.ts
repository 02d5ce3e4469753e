import { type Kysely, sql } from 'kysely';

/**
 * Invitations (issue 44): an owner or administrator invites an address with a role. The mailed
 * link carries a random token; only its SHA-256 is kept here, so a copy of the database signs
 * nobody up. A link works once (`accepted_at`), for seven days (`expires_at`), and until revoked
 * (`revoked_at`). At most one pending invitation per address (the partial unique index).
 *
 * And the review of drafts: a contributor's draft (or, with the site setting `reviewNewBlogs`, an
 * author's new blog) waits for an editor with `submitted_at` set; publishing clears it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`"role" in ('administrator', 'editor', 'author', 'contributor', 'reader')`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('accepted_user_id', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await sql`create unique index invitations_one_pending on invitations (lower(email)) where accepted_at is null and revoked_at is null`.execute(db);
  await sql`alter table blogs add column submitted_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table blogs drop column submitted_at`.execute(db);
  await db.schema.dropTable('invitations').execute();
}
