import { type Kysely, sql } from 'kysely';

/**
 * Readable addresses (issue 58): every blog gets `slug`, its address `/blog/<slug>`, made from its
 * title by `blog_slug_base` (the rules of `src/shared/blog-slug.ts`, copied here because a
 * migration is frozen) and kept unique with `-2`, `-3`… by `claim_blog_slug`.
 *
 * `blog_slugs` holds every address a blog has had: the current one (`is_current`) and the old ones,
 * which answer 301 to the current. An old address belongs to its blog until another blog's title
 * asks for it; the current one never changes hands. A claim is one `insert … on conflict do update
 * … where`: the conflicting row is locked and its latest version tested, so two blogs asking for
 * the same address at once get `x` and `x-2`, never both `x` (and `blogs_slug_key` would refuse it).
 *
 * The trigger makes the slug on every insert (an import may give its own: Ghost's and WordPress's
 * slugs are kept) and moves it when a title's slug changes; so every writer, the tests' direct
 * inserts included, gets one. While a blog is a draft its old addresses are dropped (autosave
 * renames it as the title is typed, and nobody has seen those addresses).
 *
 * Existing blogs are given theirs here, oldest first (so the first of two equal titles keeps the
 * bare address), and the feeds' change time moves, as their links changed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function blog_slug_base(title text, id uuid) returns text language sql immutable parallel safe as $$
      select coalesce(
        nullif(rtrim(left(trim(both '-' from regexp_replace(
          translate(
            replace(replace(replace(replace(replace(replace(replace(
              regexp_replace(normalize(title, NFD), '[\\u0300-\\u036f]', '', 'g'),
              'ß', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'), 'þ', 'th'), 'Þ', 'th'),
            'øØđĐðÐłŁıABCDEFGHIJKLMNOPQRSTUVWXYZ',
            'ooddddlliabcdefghijklmnopqrstuvwxyz'),
          '[^a-z0-9]+', '-', 'g')), 60), '-'), ''),
        'blog-' || left(id::text, 8))
    $$`.execute(db);

  await sql`
    create table blog_slugs (
      slug text primary key,
      blog_id uuid not null references blogs (id) on delete cascade deferrable initially deferred,
      is_current boolean not null default true,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index blog_slugs_blog_idx on blog_slugs (blog_id)`.execute(db);
  await sql`create unique index blog_slugs_one_current_idx on blog_slugs (blog_id) where is_current`.execute(db);

  await sql`
    create function claim_blog_slug(blog uuid, wanted text) returns text language plpgsql as $$
    declare
      candidate text;
      n integer := 1;
    begin
      -- Its current address becomes an old one first (one current per blog), under a lock held to the commit.
      update blog_slugs set is_current = false where blog_id = blog and is_current;
      loop
        candidate := case
          when n = 1 then wanted
          when n <= 50 then wanted || '-' || n
          -- Past 50 equal titles, the blog's id keeps the search short.
          else wanted || '-' || left(blog::text, 8) || case when n > 51 then '-' || n else '' end
        end;
        insert into blog_slugs as taken (slug, blog_id) values (candidate, blog)
          on conflict (slug) do update set blog_id = excluded.blog_id, is_current = true, created_at = now()
          where taken.blog_id = excluded.blog_id or not taken.is_current;
        if found then
          return candidate;
        end if;
        n := n + 1;
      end loop;
    end
    $$`.execute(db);

  await sql`alter table blogs add column slug text`.execute(db);
  await sql`
    do $$
    declare
      b record;
    begin
      for b in select id, title from blogs order by created_at, id loop
        update blogs set slug = claim_blog_slug(b.id, blog_slug_base(b.title, b.id)) where id = b.id;
      end loop;
    end
    $$`.execute(db);
  await sql`alter table blogs alter column slug set not null`.execute(db);
  await sql`create unique index blogs_slug_key on blogs (slug)`.execute(db);
  // The sitemap names blogs by their address now: its parts stay index-only scans.
  await sql`drop index blogs_sitemap_idx`.execute(db);
  await sql`create index blogs_sitemap_idx on blogs (id) include (updated_at, slug, status, hidden_at, author_suspended_at)`.execute(db);
  await sql`update feeds_changed set changed_at = greatest(clock_timestamp(), changed_at)`.execute(db);

  await sql`
    create function blogs_slug() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        new.slug := claim_blog_slug(new.id, coalesce(nullif(new.slug, ''), blog_slug_base(new.title, new.id)));
      elsif new.slug is distinct from old.slug and new.slug is not null then
        new.slug := claim_blog_slug(new.id, new.slug);
      elsif new.slug is null or blog_slug_base(new.title, new.id) <> blog_slug_base(old.title, old.id) then
        new.slug := claim_blog_slug(new.id, blog_slug_base(new.title, new.id));
      end if;
      if tg_op = 'UPDATE' and old.status = 'draft' and new.slug <> old.slug then
        delete from blog_slugs where slug = old.slug and blog_id = new.id;
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger blogs_slug
    before insert or update of title, slug on blogs
    for each row execute function blogs_slug()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger blogs_slug on blogs`.execute(db);
  await sql`drop function blogs_slug()`.execute(db);
  await sql`drop index blogs_sitemap_idx`.execute(db);
  await sql`create index blogs_sitemap_idx on blogs (id) include (updated_at, status, hidden_at, author_suspended_at)`.execute(db);
  await sql`alter table blogs drop column slug`.execute(db);
  await sql`drop table blog_slugs`.execute(db);
  await sql`drop function claim_blog_slug(uuid, text)`.execute(db);
  await sql`drop function blog_slug_base(text, uuid)`.execute(db);
}
