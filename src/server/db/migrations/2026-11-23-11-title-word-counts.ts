import { type Kysely, sql } from 'kysely';

/**
 * The exact number of public blogs whose title holds each word (`title_word_counts`), so a
 * one-word search states its total with one index lookup instead of counting every matching
 * entry of the title's GIN index (24 ms for a word in all of 100,000 titles). A word here is a
 * lexeme of `blogs.title_tsv`, as stemmed by the 'english' configuration the search uses.
 *
 * "Public" is `blogVisibleTo(null)` in `src/server/blogs/blog-visibility.ts`: published, not
 * hidden by a moderator, author not suspended. SQL cannot call that function, so the rule is
 * written here once more (`title_word_counts_public`); `title-word-counts.test.ts` recounts
 * with `blogVisibleTo(null)` itself, so the two cannot drift apart unnoticed.
 *
 * Kept exact in the writer's own transaction by triggers on `blogs`:
 * - inserts and deletes: one trigger per statement reading its transition table, so inserting
 *   100,000 blogs in one statement (the bench's seeding), or an account's deletion cascading to
 *   all its blogs, is one aggregated upsert, not one per blog;
 * - updates: a row trigger that fires only when a title or one of the visibility columns is
 *   set (`update of`; votes set the counts, which are none of these) and, through its `when`
 *   clause, only when the title's lexemes or the blog's public visibility really changed; it
 *   notes the change, and a statement trigger applies the statement's notes at once;
 * - truncate empties the table.
 * Each statement's change is one upsert taking its rows in lexeme order, so two writers that
 * share words lock them in the same order and cannot deadlock on one another (the app writes
 * blogs' titles and visibility with one statement per transaction); a row that reaches 0 is
 * deleted, so the table holds only words some public title has (a missing word counts 0).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table title_word_counts (
      lexeme text primary key,
      blogs integer not null
    )`.execute(db);

  await sql`
    create function title_word_counts_public(status text, hidden_at timestamptz, author_suspended_at timestamptz)
    returns boolean language sql immutable parallel safe
    return status = 'published' and hidden_at is null and author_suspended_at is null`.execute(db);

  // Adds each delta to its lexeme's count, in lexeme order, then drops the counts left at 0
  // (rows this transaction has just locked: no other writer can be between the two statements).
  await sql`
    create function title_word_counts_apply(lexemes text[], deltas integer[]) returns void language plpgsql as $$
    begin
      insert into title_word_counts as kept (lexeme, blogs)
      select change.lexeme, change.delta
      from unnest(lexemes, deltas) as change(lexeme, delta)
      where change.delta <> 0
      order by change.lexeme
      on conflict (lexeme) do update set blogs = kept.blogs + excluded.blogs;
      delete from title_word_counts where lexeme = any(lexemes) and blogs = 0;
    end
    $$`.execute(db);

  // One function for both: each trigger names its transition table `changed_blogs`, and the
  // operation gives the sign (an inserted public blog adds its words, a deleted one takes them off).
  await sql`
    create function title_word_counts_on_insert_or_delete() returns trigger language plpgsql as $$
    declare
      lexemes text[];
      deltas integer[];
      delta_sign integer := case tg_op when 'INSERT' then 1 else -1 end;
    begin
      select array_agg(lexeme order by lexeme), array_agg(delta_sign * blogs order by lexeme) into lexemes, deltas
      from (
        select word.lexeme, count(*)::integer as blogs
        from changed_blogs, unnest(changed_blogs.title_tsv) as word
        where title_word_counts_public(changed_blogs.status, changed_blogs.hidden_at, changed_blogs.author_suspended_at)
        group by word.lexeme
      ) as changed;
      if lexemes is not null then perform title_word_counts_apply(lexemes, deltas); end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger title_word_counts_on_insert
    after insert on blogs
    referencing new table as changed_blogs
    for each statement execute function title_word_counts_on_insert_or_delete()`.execute(db);
  await sql`
    create trigger title_word_counts_on_delete
    after delete on blogs
    referencing old table as changed_blogs
    for each statement execute function title_word_counts_on_insert_or_delete()`.execute(db);

  // Updates in two steps. A row trigger notes each blog's change in `title_word_count_changes`
  // (a plain insert: no lock on a shared row); a statement trigger then takes this statement's
  // notes and applies them as one upsert in lexeme order. Applying them row by row would lock
  // lexemes blog after blog, so an update of many blogs (a suspension) could take two words in
  // the opposite order to a concurrent writer and deadlock. Notes of other transactions are
  // invisible until they commit, and each statement removes its own, so the statement trigger
  // only ever sees its own.
  //
  // `title_tsv` is generated from `title`, so `update of title` is what a new title sets; the
  // `when` clause reads the generated value, which an AFTER trigger sees computed. A vote sets
  // none of these columns: neither trigger fires.
  await sql`
    create table title_word_count_changes (
      lexeme text not null,
      delta integer not null
    )`.execute(db);
  await sql`
    create function title_word_counts_on_update() returns trigger language plpgsql as $$
    begin
      insert into title_word_count_changes (lexeme, delta)
      select change.lexeme, sum(change.delta)::integer
      from (
        select word.lexeme, -1 as delta from unnest(old.title_tsv) as word
        where title_word_counts_public(old.status, old.hidden_at, old.author_suspended_at)
        union all
        select word.lexeme, 1 as delta from unnest(new.title_tsv) as word
        where title_word_counts_public(new.status, new.hidden_at, new.author_suspended_at)
      ) as change
      group by change.lexeme
      having sum(change.delta) <> 0;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger title_word_counts_on_update
    after update of title, status, hidden_at, author_suspended_at on blogs
    for each row
    when (
      old.title_tsv is distinct from new.title_tsv
      or title_word_counts_public(old.status, old.hidden_at, old.author_suspended_at)
        is distinct from title_word_counts_public(new.status, new.hidden_at, new.author_suspended_at)
    )
    execute function title_word_counts_on_update()`.execute(db);
  await sql`
    create function title_word_counts_after_update() returns trigger language plpgsql as $$
    declare
      lexemes text[];
      deltas integer[];
    begin
      with taken as (delete from title_word_count_changes returning lexeme, delta)
      select array_agg(lexeme order by lexeme), array_agg(delta order by lexeme) into lexemes, deltas
      from (select taken.lexeme, sum(taken.delta)::integer as delta from taken group by taken.lexeme) as changed;
      if lexemes is not null then perform title_word_counts_apply(lexemes, deltas); end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger title_word_counts_after_update
    after update of title, status, hidden_at, author_suspended_at on blogs
    for each statement execute function title_word_counts_after_update()`.execute(db);

  await sql`
    create function title_word_counts_on_truncate() returns trigger language plpgsql as $$
    begin
      truncate title_word_counts;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger title_word_counts_on_truncate
    after truncate on blogs
    for each statement execute function title_word_counts_on_truncate()`.execute(db);

  await sql`
    insert into title_word_counts (lexeme, blogs)
    select word.lexeme, count(*)::integer
    from blogs, unnest(blogs.title_tsv) as word
    where title_word_counts_public(blogs.status, blogs.hidden_at, blogs.author_suspended_at)
    group by word.lexeme
    order by word.lexeme`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['on_insert', 'on_delete', 'on_update', 'after_update', 'on_truncate']) {
    await sql.raw(`drop trigger title_word_counts_${name} on blogs`).execute(db);
  }
  for (const name of ['on_insert_or_delete', 'on_update', 'after_update', 'on_truncate']) {
    await sql.raw(`drop function title_word_counts_${name}()`).execute(db);
  }
  await sql`drop table title_word_count_changes`.execute(db);
  await sql`drop function title_word_counts_apply(text[], integer[])`.execute(db);
  await sql`drop function title_word_counts_public(text, timestamptz, timestamptz)`.execute(db);
  await sql`drop table title_word_counts`.execute(db);
}
