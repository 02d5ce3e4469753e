import { type Kysely, sql } from 'kysely';

/**
 * The browsers each account has signed in from (its name and system, "Firefox on Linux": a new
 * version of a known browser is not a new one). A sign-in from one not listed sends the account a
 * mail with a 'This wasn't me' link; the account's first sign-in after this migration only lists
 * its browser, so an upgrade mails nobody.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('known_browsers')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('browser', 'text', (col) => col.notNull())
    .addColumn('first_seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('known_browsers_pkey', ['user_id', 'browser'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('known_browsers').execute();
}
