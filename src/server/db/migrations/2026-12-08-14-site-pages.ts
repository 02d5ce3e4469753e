import { type Kysely, sql } from 'kysely';

/**
 * Pages the owner writes (issue 58). `site_texts` holds the owner's About text and Support
 * questions, one row each, only once saved: with no row the page shows the spec's text, so a site
 * whose owner changed nothing reads as before. `site_pages` holds the owner's own pages, at
 * `/page/<slug>`; the sitemap lists them, so adding, changing or removing one moves
 * `feeds_changed` (migration 2026-11-24-01) as a blog's change does.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table site_texts (
      key text primary key check (key in ('about', 'faq')),
      value jsonb not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table site_pages (
      slug text primary key,
      title text not null,
      markdown text not null,
      html text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create constraint trigger feeds_changed_on_site_pages
    after insert or update or delete on site_pages
    deferrable initially deferred
    for each row
    execute function feeds_changed_bump()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table site_pages`.execute(db);
  await sql`drop table site_texts`.execute(db);
}
