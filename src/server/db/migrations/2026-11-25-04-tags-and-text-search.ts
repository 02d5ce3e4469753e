import { type Kysely, type RawBuilder, sql } from 'kysely';

/**
 * Tags, and search inside the text of blogs (issue 22). Both are columns and indexes of `blogs`,
 * kept on write; the spec's title search (`title_tsv`, `title_word_counts`) is left as it was.
 *
 * - `blogs.tags`: up to 5 lowercase tags (the app checks their form), with a GIN index for a
 *   tag's list and feed.
 * - `blogs.body_text`: the plain text of the body (what the reader sees: no Markdown, no HTML),
 *   written by the renderer beside `html` on every save. Search snippets are cut from it, never
 *   from HTML. Blogs written before this migration get it here, from their stored HTML (tags
 *   taken out, the few entities the renderer writes turned back into characters).
 * - `blogs.search_tsv`: generated from the title (weight A) and `body_text` (weight B), so the
 *   title ranks above the text and every write keeps it right; GIN-indexed. The title's part is
 *   `title_tsv` exactly (so `title_word_counts` counts it too); in the text, `<` and `&` are read
 *   as blanks: the parser would take `<div>` or `&amp;` written in prose for markup and skip them.
 * - `tag_counts` and `text_word_counts`: how many public blogs carry each tag, and each lexeme of
 *   `search_tsv`, kept exact by triggers in the writer's transaction, as `title_word_counts` is
 *   (migration 2026-11-23-11, whose comment says why statement triggers and lexeme order). The
 *   `/tags` page and the editor's suggestions read `tag_counts`; a one-word search in text states
 *   its total from `text_word_counts` with one lookup instead of counting every match.
 *
 * "Public" is `blogVisibleTo(null)` of `src/server/blogs/blog-visibility.ts`, written here in SQL
 * once more as `counted_blog_public` (its own function, so this migration stands on its own);
 * `tag-counts.test.ts` and `text-word-counts.test.ts` recount with `blogVisibleTo(null)` itself.
 *
 * A public blog's tags are shown by the feeds and the sitemap lists tag pages, so a change of
 * them moves `feeds_changed` (migration 2026-11-24-01) like any other shown column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table blogs add column tags text[] not null default '{}'
    constraint blogs_tags_at_most_5 check (cardinality(tags) <= 5 and array_position(tags, null) is null)`.execute(db);
  await sql`create index blogs_tags_idx on blogs using gin (tags)`.execute(db);

  await sql`alter table blogs add column body_text text`.execute(db);
  await sql`update blogs set body_text = ${plainTextOfHtml(sql.ref('html'))} where html is not null`.execute(db);
  await sql`
    alter table blogs add column search_tsv tsvector not null generated always as (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', translate(coalesce(body_text, ''), '<&', '  ')), 'B')
    ) stored`.execute(db);
  await sql`create index blogs_search_tsv_idx on blogs using gin (search_tsv)`.execute(db);

  await sql`
    create function counted_blog_public(status text, hidden_at timestamptz, author_suspended_at timestamptz)
    returns boolean language sql immutable parallel safe
    return status = 'published' and hidden_at is null and author_suspended_at is null`.execute(db);

  await keptCounts(db, { table: 'tag_counts', key: 'tag', column: 'tags', elements: (row) => sql`select distinct element from unnest(${row}.tags) as element` });
  await sql`create index tag_counts_most_used_idx on tag_counts (blogs desc, tag)`.execute(db);
  await keptCounts(db, { table: 'text_word_counts', key: 'lexeme', column: 'search_tsv', elements: (row) => sql`select word.lexeme from unnest(${row}.search_tsv) as word` });

  await sql`
    create constraint trigger feeds_changed_on_tags
    after update of tags on blogs
    deferrable initially deferred
    for each row
    when (
      (feeds_blog_public(old.status, old.hidden_at, old.author_suspended_at)
        or feeds_blog_public(new.status, new.hidden_at, new.author_suspended_at))
      and old.tags is distinct from new.tags
    )
    execute function feeds_changed_bump()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger feeds_changed_on_tags on blogs`.execute(db);
  for (const table of ['text_word_counts', 'tag_counts']) await dropKeptCounts(db, table);
  await sql`drop function counted_blog_public(text, timestamptz, timestamptz)`.execute(db);
  await sql`drop index blogs_search_tsv_idx`.execute(db);
  await sql`alter table blogs drop column search_tsv`.execute(db);
  await sql`alter table blogs drop column body_text`.execute(db);
  await sql`drop index blogs_tags_idx`.execute(db);
  await sql`alter table blogs drop column tags`.execute(db);
}

/**
 * The text of sanitised HTML: tags become spaces, the entities the renderer writes become their
 * characters (`&amp;` last, so `&amp;lt;` stays `&lt;`), runs of blanks one space, and control
 * characters go (snippets mark matches with two of them).
 */
function plainTextOfHtml(html: RawBuilder<unknown>): RawBuilder<unknown> {
  let text: RawBuilder<unknown> = sql`regexp_replace(${html}, '<[^>]*>', ' ', 'g')`;
  for (const [entity, char] of [['&lt;', '<'], ['&gt;', '>'], ['&quot;', '"'], ['&#39;', "'"], ['&#x27;', "'"], ['&nbsp;', ' '], ['&amp;', '&']]) {
    text = sql`replace(${text}, ${sql.lit(entity)}, ${sql.lit(char)})`;
  }
  return sql`btrim(regexp_replace(regexp_replace(${text}, '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f]', '', 'g'), '\\s+', ' ', 'g'))`;
}

interface KeptCounts {
  /** The counts' table: `{key} text primary key, blogs integer`. */
  table: string;
  key: string;
  /** The `blogs` column whose elements are counted (the update triggers watch it). */
  column: string;
  /** A query of a blog row's distinct elements, one column, given the row's name (`new`, `changed_blogs`). */
  elements: (row: RawBuilder<unknown>) => RawBuilder<unknown>;
}

/**
 * The number of public blogs holding each element of a column, kept exact by triggers on `blogs`,
 * built as `title_word_counts` is: inserts and deletes by one statement trigger over the
 * transition table; updates noted by a row trigger (only when the column or the blog's
 * visibility changed) into `{table}_changes` and applied once per statement; every change one
 * upsert in key order, so writers sharing keys lock them in the same order; a count reaching 0
 * is deleted.
 */
async function keptCounts(db: Kysely<any>, { table, key, column, elements }: KeptCounts): Promise<void> {
  const t = sql.raw(table);
  const k = sql.raw(key);
  const c = sql.raw(column);
  const of = (row: string) => elements(sql.raw(row));
  const isPublic = (row: string) => sql.raw(`counted_blog_public(${row}.status, ${row}.hidden_at, ${row}.author_suspended_at)`);

  await sql`create table ${t} (${k} text collate "C" primary key, blogs integer not null)`.execute(db);
  await sql`create table ${sql.raw(`${table}_changes`)} (${k} text collate "C" not null, delta integer not null)`.execute(db);

  await sql`
    create function ${sql.raw(`${table}_apply`)}(keys text[], deltas integer[]) returns void language plpgsql as $$
    begin
      insert into ${t} as kept (${k}, blogs)
      select change.${k}, change.delta
      from unnest(keys, deltas) as change(${k}, delta)
      where change.delta <> 0
      order by change.${k}
      on conflict (${k}) do update set blogs = kept.blogs + excluded.blogs;
      delete from ${t} where ${k} = any(keys) and blogs = 0;
    end
    $$`.execute(db);

  await sql`
    create function ${sql.raw(`${table}_on_insert_or_delete`)}() returns trigger language plpgsql as $$
    declare
      keys text[];
      deltas integer[];
      delta_sign integer := case tg_op when 'INSERT' then 1 else -1 end;
    begin
      select array_agg(counted.element order by counted.element), array_agg(delta_sign * counted.blogs order by counted.element) into keys, deltas
      from (
        select element.element, count(*)::integer as blogs
        from changed_blogs, lateral (${of('changed_blogs')}) as element(element)
        where ${isPublic('changed_blogs')}
        group by element.element
      ) as counted;
      if keys is not null then perform ${sql.raw(`${table}_apply`)}(keys, deltas); end if;
      return null;
    end
    $$`.execute(db);
  for (const [event, transition] of [['insert', 'new'], ['delete', 'old']] as const) {
    await sql`
      create trigger ${sql.raw(`${table}_on_${event}`)}
      after ${sql.raw(event)} on blogs
      referencing ${sql.raw(transition)} table as changed_blogs
      for each statement execute function ${sql.raw(`${table}_on_insert_or_delete`)}()`.execute(db);
  }

  await sql`
    create function ${sql.raw(`${table}_on_update`)}() returns trigger language plpgsql as $$
    begin
      insert into ${sql.raw(`${table}_changes`)} (${k}, delta)
      select change.element, sum(change.delta)::integer
      from (
        select element, -1 as delta from (${of('old')}) as gone(element) where ${isPublic('old')}
        union all
        select element, 1 as delta from (${of('new')}) as came(element) where ${isPublic('new')}
      ) as change
      group by change.element
      having sum(change.delta) <> 0;
      return null;
    end
    $$`.execute(db);
  const watched = sql.raw(`${column === 'search_tsv' ? 'title, body_text' : column}, status, hidden_at, author_suspended_at`);
  await sql`
    create trigger ${sql.raw(`${table}_on_update`)}
    after update of ${watched} on blogs
    for each row
    when (old.${c} is distinct from new.${c} or ${isPublic('old')} is distinct from ${isPublic('new')})
    execute function ${sql.raw(`${table}_on_update`)}()`.execute(db);
  await sql`
    create function ${sql.raw(`${table}_after_update`)}() returns trigger language plpgsql as $$
    declare
      keys text[];
      deltas integer[];
    begin
      with taken as (delete from ${sql.raw(`${table}_changes`)} returning ${k}, delta)
      select array_agg(changed.${k} order by changed.${k}), array_agg(changed.delta order by changed.${k}) into keys, deltas
      from (select taken.${k}, sum(taken.delta)::integer as delta from taken group by taken.${k}) as changed;
      if keys is not null then perform ${sql.raw(`${table}_apply`)}(keys, deltas); end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger ${sql.raw(`${table}_after_update`)}
    after update of ${watched} on blogs
    for each statement execute function ${sql.raw(`${table}_after_update`)}()`.execute(db);

  await sql`
    create function ${sql.raw(`${table}_on_truncate`)}() returns trigger language plpgsql as $$
    begin
      truncate ${t};
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger ${sql.raw(`${table}_on_truncate`)}
    after truncate on blogs
    for each statement execute function ${sql.raw(`${table}_on_truncate`)}()`.execute(db);

  await sql`
    insert into ${t} (${k}, blogs)
    select element.element, count(*)::integer
    from blogs, lateral (${of('blogs')}) as element(element)
    where ${isPublic('blogs')}
    group by element.element
    order by element.element`.execute(db);
}

async function dropKeptCounts(db: Kysely<any>, table: string): Promise<void> {
  for (const name of ['on_insert', 'on_delete', 'on_update', 'after_update', 'on_truncate']) {
    await sql.raw(`drop trigger ${table}_${name} on blogs`).execute(db);
  }
  for (const name of ['on_insert_or_delete', 'on_update', 'after_update', 'on_truncate']) {
    await sql.raw(`drop function ${table}_${name}()`).execute(db);
  }
  await sql.raw(`drop function ${table}_apply(text[], integer[])`).execute(db);
  await sql.raw(`drop table ${table}_changes`).execute(db);
  await sql.raw(`drop table ${table}`).execute(db);
}
