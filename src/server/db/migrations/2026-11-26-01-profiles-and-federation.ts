import { type Kysely, sql } from 'kysely';

/**
 * Profiles, and what ActivityPub needs to keep (issue #20).
 *
 * `user.handle`: the public name an account is found by (`@handle@host`, `/users/handle`):
 * lowercase letters, digits and `_`, 3–30 characters, unique. Every account has one: existing
 * accounts get one here from their e-mail's local part, and new ones from the same rule through a
 * trigger (which also replaces the column's default, an empty string), so every way a user row is
 * made (Better Auth's sign-up, an import) gets one. The owner
 * may change it in Settings. `display_name` and `bio` are optional.
 *
 * `federation_keys`: each author's key pairs (RSA for HTTP Signatures, Ed25519 for Object
 * Integrity Proofs), as JWK. `federation_kv`: Fedify's key-value store (caches, idempotence).
 * `federation_followers`: remote actors following a local author. `federation_following`: remote
 * actors a local user follows, and `federation_posts` what they sent. Comments may now come from a
 * remote actor (`user_id` null, `remote_*` set). `federation_likes`: remote likes of a blog,
 * counted apart from votes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "user" add column handle text, add column display_name text, add column bio text`.execute(db);

  const users = await sql<{ id: string; email: string }>`select id, email from "user" order by "createdAt", id`.execute(db);
  const taken = new Set<string>();
  for (const user of users.rows) {
    const handle = defaultHandle(user.email, taken);
    taken.add(handle);
    await sql`update "user" set handle = ${handle} where id = ${user.id}`.execute(db);
  }

  // The same rule as `defaultHandle` below, for every row inserted without a handle.
  await sql`
    create function user_default_handle() returns trigger language plpgsql as $$
    declare
      base text;
      candidate text;
      n integer := 1;
    begin
      if new.handle is not null and new.handle <> '' then return new; end if;
      base := left(regexp_replace(lower(split_part(new.email, '@', 1)), '[^a-z0-9_]', '_', 'g'), 24);
      if length(base) < 3 then base := rpad(base, 3, '_'); end if;
      candidate := base;
      while exists (select 1 from "user" where handle = candidate) loop
        n := n + 1;
        candidate := base || '_' || n;
      end loop;
      new.handle := candidate;
      return new;
    end $$`.execute(db);
  await sql`create trigger user_default_handle before insert on "user" for each row execute function user_default_handle()`.execute(db);

  // The default is what the trigger replaces: Better Auth refuses a required column it does not write.
  await sql`alter table "user" alter column handle set default '', alter column handle set not null`.execute(db);
  await sql`alter table "user" add constraint user_handle_format check (handle ~ '^[a-z0-9_]{3,30}$')`.execute(db);
  await sql`alter table "user" add constraint user_display_name_length check (char_length(display_name) <= 80)`.execute(db);
  await sql`alter table "user" add constraint user_bio_length check (char_length(bio) <= 500)`.execute(db);
  await sql`create unique index user_handle_key on "user" (handle)`.execute(db);

  await sql`
    create table federation_keys (
      user_id text not null references "user"(id) on delete cascade,
      algorithm text not null check (algorithm in ('RSASSA-PKCS1-v1_5', 'Ed25519')),
      private_key jsonb not null,
      public_key jsonb not null,
      created_at timestamptz not null default now(),
      primary key (user_id, algorithm)
    )`.execute(db);

  await sql`
    create table federation_kv (
      key text primary key,
      value jsonb not null,
      expires_at timestamptz
    )`.execute(db);
  await sql`create index federation_kv_expires_at_idx on federation_kv (expires_at) where expires_at is not null`.execute(db);

  await sql`
    create table federation_followers (
      user_id text not null references "user"(id) on delete cascade,
      actor_id text not null,
      inbox_url text not null,
      shared_inbox_url text,
      handle text,
      name text,
      follow_id text,
      created_at timestamptz not null default now(),
      primary key (user_id, actor_id)
    )`.execute(db);

  await sql`
    create table federation_following (
      user_id text not null references "user"(id) on delete cascade,
      actor_id text not null,
      handle text not null,
      name text,
      inbox_url text not null,
      follow_id text not null,
      state text not null default 'pending' check (state in ('pending', 'accepted')),
      created_at timestamptz not null default now(),
      primary key (user_id, actor_id)
    )`.execute(db);
  await sql`create index federation_following_actor_id_idx on federation_following (actor_id)`.execute(db);

  await sql`
    create table federation_posts (
      object_id text primary key,
      actor_id text not null,
      url text,
      title text not null,
      html text not null,
      summary text,
      published_at timestamptz,
      updated_at timestamptz,
      received_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index federation_posts_actor_idx on federation_posts (actor_id, received_at desc)`.execute(db);

  await sql`alter table comments alter column user_id drop not null`.execute(db);
  await sql`
    alter table comments
      add column remote_object_id text,
      add column remote_actor_id text,
      add column remote_author_name text,
      add column remote_author_url text,
      add constraint comments_author check (
        (user_id is not null and remote_object_id is null)
        or (user_id is null and remote_object_id is not null and remote_actor_id is not null)
      )`.execute(db);
  await sql`create unique index comments_remote_object_id_key on comments (remote_object_id) where remote_object_id is not null`.execute(db);

  await sql`
    create table federation_likes (
      blog_id uuid not null references blogs(id) on delete cascade,
      actor_id text not null,
      activity_id text,
      created_at timestamptz not null default now(),
      primary key (blog_id, actor_id)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('federation_likes').execute();
  await sql`delete from comments where user_id is null`.execute(db);
  await sql`
    alter table comments
      drop constraint comments_author,
      drop column remote_object_id,
      drop column remote_actor_id,
      drop column remote_author_name,
      drop column remote_author_url,
      alter column user_id set not null`.execute(db);
  await db.schema.dropTable('federation_posts').execute();
  await db.schema.dropTable('federation_following').execute();
  await db.schema.dropTable('federation_followers').execute();
  await db.schema.dropTable('federation_kv').execute();
  await db.schema.dropTable('federation_keys').execute();
  await sql`drop trigger user_default_handle on "user"`.execute(db);
  await sql`drop function user_default_handle()`.execute(db);
  await sql`alter table "user" drop column handle, drop column display_name, drop column bio`.execute(db);
}

/** Frozen copy of the handle rule (the trigger above is the same in SQL). */
function defaultHandle(email: string, taken: Set<string>): string {
  let base = (email.split('@')[0] ?? '').toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 24);
  if (base.length < 3) base = base.padEnd(3, '_');
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}_${n}`;
  return candidate;
}
