import { type Kysely, sql } from 'kysely';

/**
 * IndieAuth (issue 60). `indieauth_codes`: an authorization code an author granted an app, kept
 * ten minutes and used once; `indieauth_tokens`: the access tokens apps hold, each acting as its
 * author within the token's scopes. Neither keeps its secret: a code is kept as its SHA-256, a
 * token as a public selector and the SHA-256 of its secret, so a database dump signs no one in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table indieauth_codes (
      code_hash text primary key,
      user_id text not null references "user" (id) on delete cascade,
      client_id text not null,
      client_name text not null,
      redirect_uri text not null,
      code_challenge text not null,
      scope text not null,
      me text not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index indieauth_codes_expires_at on indieauth_codes (expires_at)`.execute(db);
  await sql`
    create table indieauth_tokens (
      id uuid primary key default gen_random_uuid(),
      selector text not null unique,
      secret_hash text not null,
      user_id text not null references "user" (id) on delete cascade,
      client_id text not null,
      client_name text not null,
      scope text not null,
      me text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index indieauth_tokens_user_id on indieauth_tokens (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table indieauth_tokens`.execute(db);
  await sql`drop table indieauth_codes`.execute(db);
}
