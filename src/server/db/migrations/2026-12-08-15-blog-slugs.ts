import { type Kysely, sql } from 'kysely';

/**
 * Readable addresses (issue 58): every blog gets `slug`, its address `/blog/<slug>`, made from its
 * title by `blog_slug_base` (the rules of `src/shared/blog-slug.ts`, copied here because a
 * migration is frozen) and kept unique with `-2`, `-3`… by `claim_blog_slug`.
 *
 * `blog_slugs` holds every address a blog has had: the current one (the blog's `slug`) and the
 * old ones, which answer 301 to the current. An old address belongs to its blog until another
 * blog's title asks for it; the current one never changes hands.
 *
 * Claims are made one transaction at a time: the first claim of a transaction takes one advisory
 * lock, held to its commit, which the next claimant waits for. So no claim ever waits on an
 * address another writer has not committed, and writers that would take addresses in different
 * orders (two multi-row inserts of the same titles, while their title-word counts lock rows too)
 * cannot deadlock: whoever claims first finishes first. A transaction holds one lock however many
 * blogs it writes (an import's thousand are one entry in the lock table). The price: blogs being
 * created or renamed at the same moment wait for each other's commit; reads never wait.
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
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index blog_slugs_blog_idx on blog_slugs (blog_id)`.execute(db);

  await sql`
    create function claim_blog_slug(blog uuid, wanted text) returns text language plpgsql as $$
    declare
      candidate text;
      n integer := 1;
      holder uuid;
    begin
      -- One claimant at a time (see above): held to the commit, taken again for free by the same transaction.
      perform pg_advisory_xact_lock(1651469160);
      loop
        candidate := case
          when n = 1 then wanted
          when n <= 50 then wanted || '-' || n
          -- Past 50 equal titles, the blog's id keeps the search short.
          else wanted || '-' || left(blog::text, 8) || case when n > 51 then '-' || n else '' end
        end;
        select taken.blog_id into holder from blog_slugs taken where taken.slug = candidate;
        if not found then
          insert into blog_slugs (slug, blog_id) values (candidate, blog);
          return candidate;
        elsif holder = blog then
          return candidate;
        elsif not exists (select 1 from blogs where blogs.id = holder and blogs.slug = candidate) then
          -- Another blog's old address: the title that asks for it now takes it.
          update blog_slugs set blog_id = blog, created_at = now() where slug = candidate;
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
