import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('votes')
    .addColumn('blog_id', 'uuid', (col) => col.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('direction', 'text', (col) => col.notNull().check(sql`direction in ('up', 'down')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('votes_pkey', ['blog_id', 'user_id'])
    .execute();
  await db.schema.createIndex('votes_user_id_idx').on('votes').column('user_id').execute();

  // The blog's counts follow its votes inside the same transaction, whatever changes the votes:
  // a vote, a switched vote, or a cascade from a deleted user or blog. Row locks on the blog make
  // concurrent votes serialise on the counter, so the counts stay exact.
  await sql`
    create function votes_apply_counts() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        update blogs set
          upvotes = upvotes - (case when old.direction = 'up' then 1 else 0 end),
          downvotes = downvotes - (case when old.direction = 'down' then 1 else 0 end)
        where id = old.blog_id;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        update blogs set
          upvotes = upvotes + (case when new.direction = 'up' then 1 else 0 end),
          downvotes = downvotes + (case when new.direction = 'down' then 1 else 0 end)
        where id = new.blog_id;
      end if;
      return null;
    end;
    $$`.execute(db);
  await sql`
    create trigger votes_apply_counts
    after insert or update of direction or delete on votes
    for each row execute function votes_apply_counts()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists votes_apply_counts on votes`.execute(db);
  await sql`drop function if exists votes_apply_counts()`.execute(db);
  await db.schema.dropTable('votes').execute();
}
