import { type Kysely, sql } from 'kysely';

/**
 * Roles (issue 44): every account has one, in Better Auth's admin plugin's column (`user.role`).
 * 'author' is what the spec's signed-in user is, so every existing account keeps exactly what it
 * could do. One account is the owner: a partial unique index keeps it to one, and an existing site
 * gets its oldest account (the person who set it up, as Ghost's setup has it; `npm run owner`
 * hands it over). A role change reaches every process's session memory as the same
 * `session_ended` notice a suspension sends (migration 2026-11-23-10), so it takes effect at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "user" add column "role" text not null default 'author'
    check ("role" in ('owner', 'administrator', 'editor', 'author', 'contributor', 'reader'))`.execute(db);
  await sql`create unique index user_one_owner on "user" ((true)) where "role" = 'owner'`.execute(db);
  await sql`update "user" set "role" = 'owner' where id = (select id from "user" order by "createdAt", id limit 1)`.execute(db);
  await sql`
    create function notify_user_role_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('session_ended', 'user:' || new.id);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger user_role_changed_notify after update of "role" on "user"
    for each row when (old."role" is distinct from new."role")
    execute function notify_user_role_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger user_role_changed_notify on "user"`.execute(db);
  await sql`drop function notify_user_role_changed()`.execute(db);
  await sql`drop index user_one_owner`.execute(db);
  await sql`alter table "user" drop column "role"`.execute(db);
}
