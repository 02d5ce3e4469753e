import { type Kysely, sql } from 'kysely';

/**
 * Raw views as groups (issue 46): a flush writes one row per (day, page kind, blog, referrer,
 * source, utm_*) with the visitor of each of its views in `visitors`, a `uuid[]` of as many
 * elements as it has views (the first 16 bytes of each view's visitor hash, repeated when a
 * visitor came back), instead of a row per view. The same facts as `analytics_views` held, no
 * more (a day, never a time or a reader's path), at a fraction of the database's work per view:
 * under a crowd of new visitors the row per view was most of what counting cost (docs/analytics.md).
 *
 * The rows of `analytics_views` move over, their hashes turned into the same 16 bytes (the first
 * 22 base64url characters of the digest hold its first 16 bytes), so a visitor counted on the day
 * of the upgrade before and after it is still one visitor.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_view_groups')
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('home', 'blog', 'author', 'tag', 'search')`))
    .addColumn('blog_id', 'text')
    .addColumn('referrer_host', 'text')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    .addColumn('visitors', sql`uuid[]`, (col) => col.notNull().check(sql`cardinality(visitors) > 0`))
    .execute();
  await db.schema.createIndex('analytics_view_groups_day').on('analytics_view_groups').column('day').execute();
  // Random bytes do not compress: a large array is stored out of line as it is, not tried first.
  await sql`alter table analytics_view_groups alter column visitors set storage external`.execute(db);
  await sql`
    insert into analytics_view_groups (day, kind, blog_id, referrer_host, source, utm_source, utm_medium, utm_campaign, visitors)
    select day, kind, blog_id, referrer_host, source, utm_source, utm_medium, utm_campaign,
           array_agg(encode(substring(decode(translate(visitor, '-_', '+/') || 'AA', 'base64') from 1 for 16), 'hex')::uuid)
    from analytics_views
    group by day, kind, blog_id, referrer_host, source, utm_source, utm_medium, utm_campaign
  `.execute(db);
  await db.schema.dropTable('analytics_views').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
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
  // A visitor's 16 bytes back as base64url (22 characters: the last four bits differ from the old hash's, the visitors stay distinct).
  await sql`
    insert into analytics_views (day, kind, blog_id, visitor, referrer_host, source, utm_source, utm_medium, utm_campaign)
    select day, kind, blog_id, left(translate(encode(uuid_send(visitor), 'base64'), '+/', '-_'), 22), referrer_host, source, utm_source, utm_medium, utm_campaign
    from analytics_view_groups cross join lateral unnest(visitors) as visitor
  `.execute(db);
  await db.schema.dropTable('analytics_view_groups').execute();
}
