import { type Kysely, sql } from 'kysely';

/**
 * Second factors (issue 45): Better Auth's `twoFactor` plugin (a flag on the user, the account's
 * encrypted TOTP secret and backup codes, its lock after failed codes) and the `passkey` plugin
 * (one row per WebAuthn credential), as their schemas ask, each owned by its account (deleting
 * the account deletes them). `used_totp_codes` remembers each accepted authenticator code for
 * the 90 seconds it could still be accepted, so a code seen once is refused a second time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "user" add column "twoFactorEnabled" boolean default false`.execute(db);
  await sql`create table "twoFactor" ("id" text not null primary key, "secret" text not null, "backupCodes" text not null, "userId" text not null references "user" ("id") on delete cascade, "verified" boolean default true, "failedVerificationCount" integer default 0, "lockedUntil" timestamptz)`.execute(db);
  await sql`create index "twoFactor_secret_idx" on "twoFactor" ("secret")`.execute(db);
  await sql`create index "twoFactor_userId_idx" on "twoFactor" ("userId")`.execute(db);
  await sql`create table "passkey" ("id" text not null primary key, "name" text, "publicKey" text not null, "userId" text not null references "user" ("id") on delete cascade, "credentialID" text not null, "counter" integer not null, "deviceType" text not null, "backedUp" boolean not null, "transports" text, "createdAt" timestamptz, "aaguid" text)`.execute(db);
  await sql`create index "passkey_userId_idx" on "passkey" ("userId")`.execute(db);
  await sql`create index "passkey_credentialID_idx" on "passkey" ("credentialID")`.execute(db);
  await db.schema
    .createTable('used_totp_codes')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('used_totp_codes_pkey', ['user_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['used_totp_codes', 'passkey', 'twoFactor']) await db.schema.dropTable(table).execute();
  await sql`alter table "user" drop column "twoFactorEnabled"`.execute(db);
}
