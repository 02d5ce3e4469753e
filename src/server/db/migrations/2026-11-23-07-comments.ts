import { type Kysely, sql } from 'kysely';

/**
 * Comments on blogs, one level of replies deep, and what the reply e-mails need: each user's
 * choice about them and when each user was last mailed about each blog (the hourly throttle
 * must hold across app processes, so it lives here rather than in memory).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('blog_id', 'uuid', (col) => col.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('parent_id', 'uuid')
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('html', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // Set by a moderator; a hidden comment is shown to its author only and not counted.
    .addColumn('hidden_at', 'timestamptz')
    .addUniqueConstraint('comments_id_blog_id_key', ['id', 'blog_id'])
    // A reply's parent is on the same blog, and goes (with its replies) when it goes.
    .addForeignKeyConstraint('comments_parent_fkey', ['parent_id', 'blog_id'], 'comments', ['id', 'blog_id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  // A blog's comments in page order; the user and parent indexes serve the cascades.
  await sql`create index comments_blog_order_idx on comments (blog_id, created_at, id)`.execute(db);
  await db.schema.createIndex('comments_user_id_idx').on('comments').column('user_id').execute();
  await sql`create index comments_parent_id_idx on comments (parent_id) where parent_id is not null`.execute(db);

  await db.schema
    .alterTable('blogs')
    .addColumn('comment_count', 'integer', (col) => col.notNull().defaultTo(0).check(sql`comment_count >= 0`))
    .execute();

  // The count follows the visible comments in the same transaction, whatever changes them: a new
  // comment, a deletion, a cascade from a deleted parent, user or blog, or a moderator hiding one.
  await sql`
    create function comments_apply_count() returns trigger language plpgsql as $$
    declare
      delta integer := 0;
    begin
      if tg_op in ('DELETE', 'UPDATE') and old.hidden_at is null then delta := delta - 1; end if;
      if tg_op in ('INSERT', 'UPDATE') and new.hidden_at is null then delta := delta + 1; end if;
      if delta <> 0 then
        update blogs set comment_count = comment_count + delta
        where id = (case when tg_op = 'DELETE' then old.blog_id else new.blog_id end);
      end if;
      return null;
    end;
    $$`.execute(db);
  await sql`
    create trigger comments_apply_count
    after insert or update of hidden_at or delete on comments
    for each row execute function comments_apply_count()`.execute(db);

  await db.schema
    .createTable('comment_mail_settings')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('enabled', 'boolean', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('comment_mail_sent')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('blog_id', 'uuid', (col) => col.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('sent_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('comment_mail_sent_pkey', ['user_id', 'blog_id'])
    .execute();
  await db.schema.createIndex('comment_mail_sent_blog_id_idx').on('comment_mail_sent').column('blog_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('comment_mail_sent').execute();
  await db.schema.dropTable('comment_mail_settings').execute();
  await sql`drop trigger if exists comments_apply_count on comments`.execute(db);
  await sql`drop function if exists comments_apply_count()`.execute(db);
  await db.schema.dropTable('comments').execute();
  await db.schema.alterTable('blogs').dropColumn('comment_count').execute();
}
