import { type Kysely, sql } from 'kysely';

/**
 * Analytics in the site's own database (issue 46). Raw rows (`analytics_views`,
 * `analytics_feed_fetches`) are written in batches from each process's memory and kept for
 * ANALYTICS_RAW_DAYS; the daily roll-up (`analytics_daily*`) is what the dashboards read. A
 * visitor is a hash of the day's salt, the address, the user agent and the site: neither the
 * address nor the user agent is stored, and a day's salt is deleted once its day is over.
 * A row carries its day only (no time, no path), so no visitor's way through the site is kept.
 * `blog_id` is '' for the whole site in the daily tables (a key column cannot be null).
 * A range's figures must not cost a row per day of it: each daily row also carries its blog's
 * running totals (a range's total is two rows), and the sources are summed per month as well.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_salts')
    .addColumn('day', 'date', (col) => col.primaryKey())
    .addColumn('salt', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('analytics_views')
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('home', 'blog', 'author', 'tag', 'search')`))
    .addColumn('blog_id', 'text')
    .addColumn('visitor', 'text', (col) => col.notNull())
    .addColumn('referrer_host', 'text')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    .execute();
  await db.schema.createIndex('analytics_views_day').on('analytics_views').column('day').execute();
  await db.schema
    .createTable('analytics_feed_fetches')
    .addColumn('day', 'date', (col) => col.notNull())
    // The reader service (its user agent without the count, hashed with the day's salt) and the
    // fetching client (as a visitor): subscribers are the largest count each service reported.
    .addColumn('fetcher', 'text', (col) => col.notNull())
    .addColumn('visitor', 'text', (col) => col.notNull())
    .addColumn('subscribers', 'integer')
    .execute();
  await db.schema.createIndex('analytics_feed_fetches_day').on('analytics_feed_fetches').column('day').execute();
  await db.schema
    .createTable('analytics_daily')
    .addColumn('blog_id', 'text', (col) => col.notNull())
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('views', 'integer', (col) => col.notNull())
    .addColumn('visitors', 'integer', (col) => col.notNull())
    // The blog's views and visitors up to and including this day: a range's are the totals at its
    // last day less those before its first, two index probes per blog whatever the range's length.
    .addColumn('total_views', 'bigint', (col) => col.notNull())
    .addColumn('total_visitors', 'bigint', (col) => col.notNull())
    .execute();
  // The totals ride in the key's index, so those probes never visit the table (index-only scans).
  await sql`alter table analytics_daily add constraint analytics_daily_pkey primary key (blog_id, day) include (total_views, total_visitors)`.execute(db);
  // The roll-up starts again from the last day it wrote.
  await db.schema.createIndex('analytics_daily_day').on('analytics_daily').columns(['day', 'blog_id']).execute();
  await db.schema
    .createTable('analytics_daily_sources')
    .addColumn('blog_id', 'text', (col) => col.notNull())
    .addColumn('dimension', 'text', (col) => col.notNull().check(sql`dimension in ('referrer', 'source', 'utm_source', 'utm_medium', 'utm_campaign')`))
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('views', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('analytics_daily_sources_pkey', ['blog_id', 'dimension', 'day', 'value'])
    .execute();
  await db.schema.createIndex('analytics_daily_sources_day').on('analytics_daily_sources').column('day').execute();
  // The daily sources summed per month: a long range reads its whole months here and only the
  // days at its two ends from the daily table.
  await db.schema
    .createTable('analytics_monthly_sources')
    .addColumn('blog_id', 'text', (col) => col.notNull())
    .addColumn('dimension', 'text', (col) => col.notNull())
    .addColumn('month', 'date', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('views', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('analytics_monthly_sources_pkey', ['blog_id', 'dimension', 'month', 'value'])
    .execute();
  await db.schema
    .createTable('analytics_daily_readers')
    .addColumn('day', 'date', (col) => col.primaryKey())
    .addColumn('feed_subscribers', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('feed_fetchers', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('email_subscribers', 'integer')
    .addColumn('fediverse_followers', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['analytics_daily_readers', 'analytics_monthly_sources', 'analytics_daily_sources', 'analytics_daily', 'analytics_feed_fetches', 'analytics_views', 'analytics_salts']) {
    await db.schema.dropTable(table).execute();
  }
}
