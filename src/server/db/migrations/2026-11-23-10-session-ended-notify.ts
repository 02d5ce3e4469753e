import { type Kysely, sql } from 'kysely';

/**
 * Every app process keeps recently read sessions in memory for a few seconds (`auth/session.ts`),
 * so a session that ends must be forgotten by all of them at once. The database says so itself:
 * whatever deletes a `session` row (sign-out, revocation, a password change ending the other
 * sessions, a suspension, the account's deletion through its cascade, Better Auth's clean-up of
 * expired ones) sends `NOTIFY session_ended` with the session's id, and a suspension sends the
 * user's id (`user:{id}`), after commit, to every process listening. The payload is the id, never
 * the token, which is a credential.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function notify_session_ended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('session_ended', old.id);
      return old;
    end $$`.execute(db);
  await sql`create trigger session_ended_notify after delete on "session" for each row execute function notify_session_ended()`.execute(db);
  await sql`
    create function notify_user_suspended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('session_ended', 'user:' || new.id);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger user_suspended_notify after update of suspended_at on "user"
    for each row when (new.suspended_at is not null and old.suspended_at is distinct from new.suspended_at)
    execute function notify_user_suspended()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger user_suspended_notify on "user"`.execute(db);
  await sql`drop function notify_user_suspended()`.execute(db);
  await sql`drop trigger session_ended_notify on "session"`.execute(db);
  await sql`drop function notify_session_ended()`.execute(db);
}
