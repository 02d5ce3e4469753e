import { type Kysely, sql } from 'kysely';

/**
 * When the feeds and sitemaps last changed, site-wide (`feeds_changed.changed_at`, one row): the
 * `Last-Modified` of `/rss.xml`, `/atom.xml`, `/feed.json` and the sitemaps. A blog's content
 * columns cannot give it alone, since a deleted (or hidden, or suspended) blog leaves no row to
 * date its disappearance.
 *
 * Moved forward by the commit of any transaction that
 * - inserts or deletes a public blog (an account's deletion cascading to its blogs too),
 * - changes a public blog's shown columns, or makes a blog public or not public (publish, hide,
 *   restore, suspend, unsuspend),
 * - changes a user's e-mail (the feeds name authors by it).
 * Votes and comment counts change none of these columns, so they move nothing (nor lock the row).
 *
 * "Public" is `blogVisibleTo(null)` of `src/server/blogs/blog-visibility.ts`, written here in SQL
 * as `feeds_blog_public` (its own function, so that each migration can be rebuilt on its own);
 * `feeds-changed-at.test.ts` checks it against `blogVisibleTo(null)` so the two cannot drift
 * apart unnoticed. The triggers are deferred constraint triggers: they run as the
 * transaction commits, so the time is the moment the change becomes visible, not when the
 * statement ran (a change dated before a slow transaction's commit could hide behind a
 * `Last-Modified` a reader was given meanwhile). Only the first of a transaction's triggers
 * writes the row (a transaction-local setting marks it done), so a statement touching 10,000
 * blogs writes it once. `greatest` keeps the time moving forward even if the clock steps back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table feeds_changed (
      only_row boolean primary key default true check (only_row),
      changed_at timestamptz not null
    )`.execute(db);
  await sql`insert into feeds_changed (changed_at) values (clock_timestamp())`.execute(db);

  await sql`
    create function feeds_blog_public(status text, hidden_at timestamptz, author_suspended_at timestamptz)
    returns boolean language sql immutable parallel safe
    return status = 'published' and hidden_at is null and author_suspended_at is null`.execute(db);

  await sql`
    create function feeds_changed_bump() returns trigger language plpgsql as $$
    begin
      if current_setting('feeds.changed_in_transaction', true) is distinct from 'yes' then
        update feeds_changed set changed_at = greatest(clock_timestamp(), changed_at);
        perform set_config('feeds.changed_in_transaction', 'yes', true);
      end if;
      return null;
    end
    $$`.execute(db);

  await sql`
    create constraint trigger feeds_changed_on_insert
    after insert on blogs
    deferrable initially deferred
    for each row
    when (feeds_blog_public(new.status, new.hidden_at, new.author_suspended_at))
    execute function feeds_changed_bump()`.execute(db);
  await sql`
    create constraint trigger feeds_changed_on_delete
    after delete on blogs
    deferrable initially deferred
    for each row
    when (feeds_blog_public(old.status, old.hidden_at, old.author_suspended_at))
    execute function feeds_changed_bump()`.execute(db);
  await sql`
    create constraint trigger feeds_changed_on_update
    after update of user_id, title, body, html, excerpt, created_at, updated_at, status, hidden_at, author_suspended_at on blogs
    deferrable initially deferred
    for each row
    when (
      (feeds_blog_public(old.status, old.hidden_at, old.author_suspended_at)
        or feeds_blog_public(new.status, new.hidden_at, new.author_suspended_at))
      and (old.user_id, old.title, old.body, old.html, old.excerpt, old.created_at, old.updated_at, old.status, old.hidden_at, old.author_suspended_at)
        is distinct from
          (new.user_id, new.title, new.body, new.html, new.excerpt, new.created_at, new.updated_at, new.status, new.hidden_at, new.author_suspended_at)
    )
    execute function feeds_changed_bump()`.execute(db);
  await sql`
    create constraint trigger feeds_changed_on_author_email
    after update of email on "user"
    deferrable initially deferred
    for each row
    when (old.email is distinct from new.email)
    execute function feeds_changed_bump()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger feeds_changed_on_author_email on "user"`.execute(db);
  await sql`drop trigger feeds_changed_on_update on blogs`.execute(db);
  await sql`drop trigger feeds_changed_on_delete on blogs`.execute(db);
  await sql`drop trigger feeds_changed_on_insert on blogs`.execute(db);
  await sql`drop function feeds_changed_bump()`.execute(db);
  await sql`drop function feeds_blog_public(text, timestamptz, timestamptz)`.execute(db);
  await sql`drop table feeds_changed`.execute(db);
}
