import { randomBytes } from 'node:crypto';
import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import { BLOG_SLUG_MARK } from './counted-request.js';
import { addDays } from '../../shared/analytics-schema.js';
import type { AnalyticsDimension, AnalyticsFeedFetchTable, AnalyticsViewGroupTable, Database } from '../db/schema.js';

/** The site's row in the daily tables (a key column cannot be null). */
export const SITE = '';

const dayText = sql<string>`to_char(day, 'YYYY-MM-DD')`;
const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;

/** A flush's views of one day, page, blog and origin, as the buffer writes them: `visitors` is Postgres's array text of their visitors, one per view. */
export type ViewGroupRow = Insertable<AnalyticsViewGroupTable>;
/** A counted feed fetch as the buffer writes it. */
export type FeedFetchRow = Insertable<AnalyticsFeedFetchTable>;

/** The day's salt: made by whichever process asks first, read by the others (so all hash alike). */
export async function saltOf(db: Kysely<Database>, day: string): Promise<string> {
  await db
    .insertInto('analytics_salts')
    .values({ day, salt: randomBytes(32).toString('base64') })
    .onConflict((conflict) => conflict.column('day').doNothing())
    .execute();
  return (await db.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow()).salt;
}

/** A salt lives for its day only: once the day is over nobody can tie its hashes to an address again. */
export async function deleteSaltsBefore(db: Kysely<Database>, day: string): Promise<number> {
  const result = await db.deleteFrom('analytics_salts').where('day', '<', day).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The most JSON text per statement (characters): under V8's large-object size (128 KB), so the
 * text dies young with the rest of the flush. A statement of 10,000 views made a 2 MB string in
 * the old generation every few seconds; in a profile of the home page under a crowd, the counting
 * app's garbage collection was 55 % above the app's without counting (docs/analytics.md).
 */
const STATEMENT_TEXT = 100_000;

/**
 * Rows as one JSON parameter per statement, read by Postgres into the table's row type (a view
 * group's `visitors` through `uuid[]`'s own input): a statement has one parameter however many
 * rows it holds, and turning them into text is V8's own `JSON.stringify`. (An array per column
 * cost the app 40 µs per view in `pg`'s escaping of each element, measured by CPU time under a
 * crowd of new visitors: docs/analytics.md.)
 */
function insertStatements<Row>(table: 'analytics_view_groups' | 'analytics_feed_fetches', columns: ReadonlyArray<keyof Row & string>, rows: readonly Row[]): Array<RawBuilder<unknown>> {
  const names = sql.join(columns.map((name) => sql.ref(name)));
  const statements: Array<RawBuilder<unknown>> = [];
  let texts: string[] = [];
  let length = 0;
  const statement = () => {
    statements.push(sql`insert into ${sql.table(table)} (${names}) select ${names} from json_populate_recordset(null::${sql.table(table)}, ${`[${texts.join(',')}]`}::json)`);
    texts = [];
    length = 0;
  };
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (length + text.length > STATEMENT_TEXT && texts.length > 0) statement();
    texts.push(text);
    length += text.length + 1;
  }
  if (texts.length > 0) statement();
  return statements;
}

const VIEW_GROUP_COLUMNS: ReadonlyArray<keyof ViewGroupRow & string> = ['day', 'kind', 'blog_id', 'referrer_host', 'source', 'utm_source', 'utm_medium', 'utm_campaign', 'visitors'];
const FEED_FETCH_COLUMNS: ReadonlyArray<keyof FeedFetchRow & string> = ['day', 'fetcher', 'visitor', 'subscribers'];

/**
 * Writes a flush's view groups and feed fetches, all or nothing: a flush that fails part-way
 * writes none of them, so keeping its rows for the next one counts none twice. A flush of one
 * statement (most of them) is that statement alone, its own transaction; more are one transaction.
 */
export async function insertCounted(db: Kysely<Database>, counted: readonly ViewGroupRow[], feeds: readonly FeedFetchRow[]): Promise<void> {
  const views = await withBlogIds(db, counted);
  const statements = [...insertStatements('analytics_view_groups', VIEW_GROUP_COLUMNS, views), ...insertStatements('analytics_feed_fetches', FEED_FETCH_COLUMNS, feeds)];
  if (statements.length === 1) await statements[0]!.execute(db);
  else if (statements.length > 1) {
    await db.transaction().execute(async (trx) => {
      for (const statement of statements) await statement.execute(trx);
    });
  }
}

/**
 * Views of a readable address (`/blog/<slug>`) get the id of the blog it names; one no blog has
 * any longer (deleted since) is not written, as a view of a deleted blog's id is dropped by the roll-up.
 */
async function withBlogIds(db: Kysely<Database>, views: readonly ViewGroupRow[]): Promise<readonly ViewGroupRow[]> {
  const slugs = [...new Set(views.flatMap((view) => (view.blog_id?.startsWith(BLOG_SLUG_MARK) ? [view.blog_id.slice(BLOG_SLUG_MARK.length)] : [])))];
  if (slugs.length === 0) return views;
  const found = await db.selectFrom('blog_slugs').select(['slug', 'blog_id']).where('slug', 'in', slugs).execute();
  const ids = new Map(found.map((row) => [row.slug, row.blog_id]));
  return views.flatMap((view) => {
    if (!view.blog_id?.startsWith(BLOG_SLUG_MARK)) return [view];
    const id = ids.get(view.blog_id.slice(BLOG_SLUG_MARK.length));
    return id === undefined ? [] : [{ ...view, blog_id: id }];
  });
}

const DIMENSIONS: ReadonlyArray<[AnalyticsDimension, 'referrer_host' | 'source' | 'utm_source' | 'utm_medium' | 'utm_campaign']> = [
  ['referrer', 'referrer_host'],
  ['source', 'source'],
  ['utm_source', 'utm_source'],
  ['utm_medium', 'utm_medium'],
  ['utm_campaign', 'utm_campaign'],
];

/**
 * Rolls the raw rows up into the daily tables, from the last day it wrote (rolled again: it was
 * probably today then) to `today`, but never from a day whose raw rows may already be pruned
 * (`keepFrom`). Each day is replaced whole, so a run is idempotent and a killed run harmless.
 * `lateFrom`: a day whose views may still arrive (a process's last flush of yesterday comes after
 * midnight's first roll-up), rolled again however far the daily figures already reach.
 * Answers the first day it rolled up.
 */
export async function rollUp(db: Kysely<Database>, { today, keepFrom, lateFrom = today }: { today: string; keepFrom: string; lateFrom?: string }): Promise<{ from: string; days: number }> {
  return db.transaction().execute(async (trx) => {
    // One roll-up at a time (two processes' jobs could otherwise interleave their deletes and inserts).
    await sql`lock table analytics_daily in exclusive mode`.execute(trx);
    const last = await trx.selectFrom('analytics_daily').select(sql<string | null>`to_char(max(day), 'YYYY-MM-DD')`.as('day')).executeTakeFirst();
    const firstRaw = await trx.selectFrom('analytics_view_groups').select(sql<string | null>`to_char(min(day), 'YYYY-MM-DD')`.as('day')).executeTakeFirst();
    let from = last?.day ?? firstRaw?.day ?? today;
    if (from > lateFrom) from = lateFrom;
    if (from < keepFrom) from = keepFrom;
    if (from > today) from = today;
    await trx.deleteFrom('analytics_daily').where('day', '>=', from).execute();
    // One scan of the raw views (each group's visitors, one per view) for the site's figures and
    // every blog's (grouping sets): the site's rows are those grouped without the blog; a view of
    // no blog (home, a tag) counts for the site only.
    // Every day from `from` on is written again, so each running total starts from the blog's last
    // one before `from` and the later days' totals follow whatever an earlier day became.
    await sql`
      insert into analytics_daily (blog_id, day, views, visitors, total_views, total_visitors)
      select r.blog_id, r.day, r.views, r.visitors,
             coalesce(before.total_views, 0) + sum(r.views) over running,
             coalesce(before.total_visitors, 0) + sum(r.visitors) over running
      from (
        select case when grouping(blog_id) = 1 then ${SITE} else blog_id end as blog_id, day, count(*) as views, count(distinct visitor) as visitors
        from analytics_view_groups g cross join lateral unnest(g.visitors) as visitor where day >= ${from}
        group by grouping sets ((day), (day, blog_id))
        having grouping(blog_id) = 1 or blog_id is not null
      ) r
      left join lateral (
        select total_views, total_visitors from analytics_daily d where d.blog_id = r.blog_id and d.day < ${from} order by d.day desc limit 1
      ) before on true
      window running as (partition by r.blog_id order by r.day)
    `.execute(trx);
    await trx.deleteFrom('analytics_daily_sources').where('day', '>=', from).execute();
    const dimensions = sql.join(DIMENSIONS.map(([dimension, column]) => sql`(${dimension}, v.${sql.ref(column)})`));
    await sql`
      insert into analytics_daily_sources (blog_id, dimension, day, value, views)
      select case when grouping(blog_id) = 1 then ${SITE} else blog_id end, dimension, day, value, sum(cardinality(v.visitors))
      from analytics_view_groups v cross join lateral (values ${dimensions}) as d(dimension, value)
      where v.day >= ${from} and d.value is not null
      group by grouping sets ((day, dimension, value), (day, blog_id, dimension, value))
      having grouping(blog_id) = 1 or blog_id is not null
    `.execute(trx);
    await rollUpMonthlySources(trx, from);
    // Feed figures per day; a day's e-mail and fediverse figures are its own snapshot (below), kept.
    await sql`
      insert into analytics_daily_readers (day, feed_subscribers, feed_fetchers)
      select day, coalesce(sum(most), 0), (select count(distinct visitor) from analytics_feed_fetches f where f.day = per_service.day)
      from (select day, fetcher, max(subscribers) as most from analytics_feed_fetches where day >= ${from} group by day, fetcher) per_service
      group by day
      on conflict (day) do update set feed_subscribers = excluded.feed_subscribers, feed_fetchers = excluded.feed_fetchers
    `.execute(trx);
    // A blog that is gone takes its figures with it.
    await sql`delete from analytics_daily d where d.blog_id <> ${SITE} and d.day >= ${from} and not exists (select 1 from blogs b where b.id = d.blog_id::uuid)`.execute(trx);
    return { from, days: Math.max(1, Math.round((Date.parse(today) - Date.parse(from)) / 86_400_000) + 1) };
  });
}

/** Sums the daily sources again per month, for `from`'s month and every later one (their days were just rewritten). */
export async function rollUpMonthlySources(db: Kysely<Database>, from: string): Promise<void> {
  const month = firstOfMonth(from);
  await db.deleteFrom('analytics_monthly_sources').where('month', '>=', month).execute();
  await sql`
    insert into analytics_monthly_sources (blog_id, dimension, month, value, views)
    select blog_id, dimension, date_trunc('month', day)::date, value, sum(views)
    from analytics_daily_sources where day >= ${month}
    group by blog_id, dimension, date_trunc('month', day), value
  `.execute(db);
}

/** Today's e-mail subscribers (confirmed) and fediverse followers, as the day's figure. */
export async function snapshotReaders(db: Kysely<Database>, today: string): Promise<void> {
  await sql`
    insert into analytics_daily_readers (day, email_subscribers, fediverse_followers)
    values (${today}, (select count(*) from subscriptions where confirmed_at is not null), (select count(*) from federation_followers))
    on conflict (day) do update set email_subscribers = excluded.email_subscribers, fediverse_followers = excluded.fediverse_followers
  `.execute(db);
}

/** Raw rows older than the kept days go; the daily figures stay. */
export async function pruneRaw(db: Kysely<Database>, keepFrom: string): Promise<number> {
  const views = await db.deleteFrom('analytics_view_groups').where('day', '<', keepFrom).executeTakeFirst();
  const feeds = await db.deleteFrom('analytics_feed_fetches').where('day', '<', keepFrom).executeTakeFirst();
  return Number(views.numDeletedRows) + Number(feeds.numDeletedRows);
}

export interface Range {
  from: string;
  to: string;
}

export async function dailyViews(db: Kysely<Database>, blogId: string, range: Range) {
  return db
    .selectFrom('analytics_daily')
    .select([dayText.as('date'), 'views', 'visitors'])
    .where('blog_id', '=', blogId)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .orderBy('day')
    .execute();
}

/**
 * A range as the whole calendar months inside it (read from the monthly sums) and the days at its
 * two ends outside them (read from the daily rows); a range with no whole month is all days.
 */
export function monthsAndDaysOf(range: Range): { months: Range | null; days: Range[] } {
  const first = range.from === firstOfMonth(range.from) ? range.from : firstOfMonth(addDays(firstOfMonth(range.from), 31));
  const afterLast = firstOfMonth(addDays(range.to, 1));
  if (first >= afterLast) return { months: null, days: [range] };
  const months = { from: first, to: addDays(afterLast, -1) };
  const ends = [
    { from: range.from, to: addDays(months.from, -1) },
    { from: addDays(months.to, 1), to: range.to },
  ];
  return { months, days: ends.filter((end) => end.from <= end.to) };
}

export async function topValues(db: Kysely<Database>, blogId: string, dimensions: readonly AnalyticsDimension[], range: Range, limit: number) {
  const { months, days } = monthsAndDaysOf(range);
  const wholeMonths = db
    .selectFrom('analytics_monthly_sources')
    .select(['dimension', 'value', 'views'])
    .where('blog_id', '=', blogId)
    .where('dimension', 'in', dimensions)
    // A range with no whole month reads no monthly row (and the union keeps one shape either way).
    .$call((query) => (months ? query.where('month', '>=', months.from).where('month', '<=', months.to) : query.where(sql<boolean>`false`)));
  const counted = days.reduce(
    (all, piece) =>
      all.unionAll(
        db
          .selectFrom('analytics_daily_sources')
          .select(['dimension', 'value', sql<string>`views`.as('views')])
          .where('blog_id', '=', blogId)
          .where('dimension', 'in', dimensions)
          .where('day', '>=', piece.from)
          .where('day', '<=', piece.to),
      ),
    wholeMonths,
  );
  return db
    .selectFrom(counted.as('counted'))
    .select(['dimension', 'value', sql<string>`sum(views)`.as('views')])
    .groupBy(['dimension', 'value'])
    .orderBy(sql`sum(views)`, 'desc')
    .orderBy('value')
    .limit(limit)
    .execute();
}

/**
 * The blogs with the most views in the range: a blog's are its running total at the range's last
 * day less the one before its first day (two index probes per blog, whatever the range's length).
 * A blog with no daily row in the range is not among them.
 */
export async function topBlogs(db: Kysely<Database>, range: Range, limit: number) {
  const result = await sql<{ id: string; title: string; views: string; visitors: string }>`
    select b.id::text as id, b.title, upto.total_views - coalesce(before.total_views, 0) as views,
           upto.total_visitors - coalesce(before.total_visitors, 0) as visitors
    from blogs b
    cross join lateral (
      select day, total_views, total_visitors from analytics_daily d
      where d.blog_id = b.id::text and d.day <= ${range.to} order by d.day desc limit 1
    ) upto
    left join lateral (
      select total_views, total_visitors from analytics_daily d
      where d.blog_id = b.id::text and d.day < ${range.from} order by d.day desc limit 1
    ) before on true
    where upto.day >= ${range.from}
    order by views desc, b.title
    limit ${limit}
  `.execute(db);
  return result.rows;
}

export async function readersDays(db: Kysely<Database>, range: Range) {
  return db
    .selectFrom('analytics_daily_readers')
    .select([dayText.as('date'), 'feed_subscribers', 'feed_fetchers', 'email_subscribers', 'fediverse_followers'])
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .orderBy('day')
    .execute();
}

/** A blog whatever its state (a draft's author sees its figures too), with its author. */
export async function blogOf(db: Kysely<Database>, id: string) {
  return db.selectFrom('blogs').select(['id', 'title', 'user_id']).where('id', '=', id).executeTakeFirst();
}
