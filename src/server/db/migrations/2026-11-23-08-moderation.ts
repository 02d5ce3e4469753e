import { type Kysely, sql } from 'kysely';

/**
 * Moderation: readers' reports, the moderators' log, blogs hidden by a moderator and suspended
 * accounts. Reports and log entries name their target by type and id (a blog, a comment, a user)
 * without a foreign key, so the log outlives what it is about; reports whose target is gone are
 * left out of the moderators' list.
 *
 * A suspended author's blogs carry the suspension too (`blogs.author_suspended_at`, set with the
 * account's in one transaction, and copied by a trigger onto a blog inserted meanwhile), so the
 * public rule reads the blog's own row, and the lists, feeds and sitemap, whose indexes carry
 * the two columns, stay index scans.
 */
/** The indexes of the public lists, feeds and sitemap, as migration 05 made them (keys only). */
const PUBLIC_INDEXES = [
  ['blogs_home_order_idx', '(rating desc, created_at desc, id desc)', ''],
  ['blogs_newest_idx', '(created_at desc, id desc)', ''],
  ['blogs_user_newest_idx', '(user_id, created_at desc, id desc)', ''],
  ['blogs_sitemap_idx', '(id)', 'updated_at, '],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "user" add column suspended_at timestamptz`.execute(db);
  // Suspended accounts are few: the anti-join of the public lists reads this small index.
  await sql`create index user_suspended_idx on "user" (id) where suspended_at is not null`.execute(db);

  await sql`alter table blogs add column hidden_at timestamptz`.execute(db);
  await sql`alter table blogs add column hidden_by text references "user" (id) on delete set null`.execute(db);
  await sql`alter table blogs add column author_suspended_at timestamptz`.execute(db);
  await sql`
    create function blogs_copy_author_suspension() returns trigger language plpgsql as $$
    begin
      -- Waits for a suspension being written (it locks the account first), then reads it.
      select suspended_at into new.author_suspended_at from "user" where id = new.user_id for key share;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger blogs_copy_author_suspension
    before insert on blogs
    for each row execute function blogs_copy_author_suspension()`.execute(db);

  // Whole indexes carrying the two columns beside the drafts' `status` (migration 05), not partial
  // ones: a partial index looks so cheap to the planner that it would take it over the title
  // index in searches. Every ordered list and feed reads one of these.
  for (const [name, keys, carried] of PUBLIC_INDEXES) {
    await db.schema.dropIndex(name).execute();
    await sql.raw(`create index ${name} on blogs ${keys} include (${carried}status, hidden_at, author_suspended_at)`).execute(db);
  }

  // Comments the same way: the suspension kept on each comment, the count of visible comments
  // following both columns (the comments migration's trigger counted `hidden_at` alone).
  await sql`alter table comments add column author_suspended_at timestamptz`.execute(db);
  await sql`
    create function comments_copy_author_suspension() returns trigger language plpgsql as $$
    begin
      select suspended_at into new.author_suspended_at from "user" where id = new.user_id for key share;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger comments_copy_author_suspension
    before insert on comments
    for each row execute function comments_copy_author_suspension()`.execute(db);
  await sql`
    create or replace function comments_apply_count() returns trigger language plpgsql as $$
    declare
      delta integer := 0;
    begin
      if tg_op in ('DELETE', 'UPDATE') and old.hidden_at is null and old.author_suspended_at is null then delta := delta - 1; end if;
      if tg_op in ('INSERT', 'UPDATE') and new.hidden_at is null and new.author_suspended_at is null then delta := delta + 1; end if;
      if delta <> 0 then
        update blogs set comment_count = comment_count + delta
        where id = (case when tg_op = 'DELETE' then old.blog_id else new.blog_id end);
      end if;
      return null;
    end;
    $$`.execute(db);
  await sql`drop trigger comments_apply_count on comments`.execute(db);
  await sql`
    create trigger comments_apply_count
    after insert or update of hidden_at, author_suspended_at or delete on comments
    for each row execute function comments_apply_count()`.execute(db);

  await db.schema
    .createTable('reports')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('reporter_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (col) => col.notNull().check(sql`target_type in ('blog', 'comment')`))
    .addColumn('target_id', 'uuid', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull().check(sql`reason in ('spam', 'harassment', 'illegal', 'other')`))
    .addColumn('details', 'text', (col) => col.check(sql`char_length(details) <= 1000`))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open').check(sql`status in ('open', 'resolved', 'dismissed')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'text', (col) => col.references('user.id').onDelete('set null'))
    .execute();
  // One open report per reader per item; a closed one does not stop a new report.
  await sql`create unique index reports_one_open_idx on reports (reporter_id, target_type, target_id) where status = 'open'`.execute(db);
  await sql`create index reports_open_idx on reports (created_at, id) where status = 'open'`.execute(db);
  await sql`create index reports_target_idx on reports (target_type, target_id) where status = 'open'`.execute(db);

  await db.schema
    .createTable('moderation_log')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('moderator_id', 'text', (col) => col.references('user.id').onDelete('set null'))
    // Kept as written at the time, so the log still says who and what after an account or blog is gone.
    .addColumn('moderator_email', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) =>
      col.notNull().check(sql`action in ('hide', 'restore', 'dismiss', 'suspend', 'unsuspend')`),
    )
    .addColumn('target_type', 'text', (col) => col.notNull().check(sql`target_type in ('blog', 'comment', 'user')`))
    .addColumn('target_id', 'text', (col) => col.notNull())
    .addColumn('target_label', 'text', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('report_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index moderation_log_newest_idx on moderation_log (created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('moderation_log').execute();
  await db.schema.dropTable('reports').execute();
  for (const [name, keys, carried] of PUBLIC_INDEXES) {
    await db.schema.dropIndex(name).execute();
    await sql.raw(`create index ${name} on blogs ${keys} include (${carried}status)`).execute(db);
  }
  await sql`drop trigger comments_apply_count on comments`.execute(db);
  await sql`
    create trigger comments_apply_count
    after insert or update of hidden_at or delete on comments
    for each row execute function comments_apply_count()`.execute(db);
  await sql`drop trigger if exists comments_copy_author_suspension on comments`.execute(db);
  await sql`drop function if exists comments_copy_author_suspension()`.execute(db);
  await sql`alter table comments drop column author_suspended_at`.execute(db);
  await sql`drop trigger if exists blogs_copy_author_suspension on blogs`.execute(db);
  await sql`drop function if exists blogs_copy_author_suspension()`.execute(db);
  await sql`alter table blogs drop column author_suspended_at`.execute(db);
  await sql`alter table blogs drop column hidden_by`.execute(db);
  await sql`alter table blogs drop column hidden_at`.execute(db);
  await db.schema.dropIndex('user_suspended_idx').execute();
  await sql`alter table "user" drop column suspended_at`.execute(db);
}
