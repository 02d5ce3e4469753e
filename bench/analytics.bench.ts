/**
 * The analytics dashboards' queries on Postgres at 10 million raw views (the last 30 days, as
 * ANALYTICS_RAW_DAYS keeps them) and two years of daily rows for 1,000 blogs, made with
 * generate_series in SQL. Each of the site's and a blog's answers (every query the API's
 * `GET /api/analytics/site` and `GET /api/analytics/blogs/:id` run, through the same service
 * functions) is timed BENCH_SAMPLES times (default 50) for 7, 30, 90 and 730 days, beside a
 * `select 1` round trip on the same pool in the same run (the machine is shared: the round trip
 * is the floor). Then the recurring roll-up of today's raw rows (what the `analytics-rollup` job
 * does every 5 minutes), a roll-up of every kept day (as at the first start), the pruning of a day of raw rows, and a flush of 2,000 counted views.
 *
 *   node --import tsx bench/analytics.bench.ts     (Postgres: DATABASE_URL, else a throwaway cluster)
 *
 * BENCH_VIEWS (default 10000000), BENCH_BLOGS (default 1000), BENCH_DAYS of daily rows (default 730).
 * Figures go to stdout, and to the file BENCH_OUT names if set.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { addDays } from '../src/shared/analytics-schema.js';
import { createAnalyticsBuffer } from '../src/server/analytics/analytics-buffer.js';
import { dayOf } from '../src/server/analytics/analytics.job.js';
import { dailyViews, pruneRaw, readersDays, rollUp, rollUpMonthlySources, SITE, topBlogs, topValues } from '../src/server/analytics/analytics.repository.js';
import { blogAnalytics, siteAnalytics } from '../src/server/analytics/analytics.service.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { benchDatabase, type Cleanups } from './support/bench-processes.js';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 10_000_000);
const BLOGS = Number(process.env.BENCH_BLOGS ?? 1_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 730);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);
const RAW_DAYS = 30;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timed(samples: number, run: () => Promise<unknown>): Promise<{ p50: number; p95: number; max: number }> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
}

async function step<T>(what: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

const cleanups: Cleanups = [];
try {
  const url = await benchDatabase('analytics_bench', cleanups);
  const database = await openDatabase({ dataDir: '/tmp', databaseUrl: url });
  cleanups.push(() => database.close());
  const db = database.db;
  await migrateToLatest(db);
  const today = dayOf(new Date());
  const firstRaw = addDays(today, -(RAW_DAYS - 1));
  const firstDaily = addDays(today, -(DAYS - 1));

  await step(`${BLOGS} blogs`, async () => {
    await sql`insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") values ('bench-author', 'bench', 'bench@example.com', true, now(), now())`.execute(db);
    await sql`insert into blogs (user_id, title, body) select 'bench-author', 'Blog ' || n, 'Words.' from generate_series(1, ${BLOGS}) n`.execute(db);
    await sql`create temporary table bench_blogs as select row_number() over (order by id) as n, id::text as id from blogs`.execute(db);
  });
  // In the order they would be written (day after day); popular blogs get more views (n^2 skew);
  // visitors repeat (about 3 views each); a fifth of views have a referrer from a list of 40 hosts.
  // Written as a flush writes them: the views of 20 in a row (a flush's worth at this site's
  // rate, about 4 a second) that share their day, page, blog and origin are one group, most of
  // them a group of one.
  await step(`${(VIEWS / 1e6).toFixed(0)} million raw views over ${RAW_DAYS} days`, () =>
    sql`
      insert into analytics_view_groups (day, kind, blog_id, referrer_host, source, utm_source, utm_medium, utm_campaign, visitors)
      select day, kind, blog_id, referrer_host, source, utm_source, utm_medium, utm_campaign, array_agg(visitor)
      from (
        select g / 20 as flush,
               ${firstRaw}::date + (g::bigint * ${RAW_DAYS} / (${VIEWS} + 1))::int as day,
               case when g % 10 = 0 then 'home' else 'blog' end as kind,
               case when g % 10 = 0 then null else b.ids[1 + floor(${BLOGS} * power(random(), 2))::int] end as blog_id,
               md5((g / 3)::text)::uuid as visitor,
               case when g % 5 = 0 then 'referrer-' || (g % 40) || '.example' end as referrer_host,
               (array['direct','search','social','fediverse','email','feeds','other'])[1 + g % 7] as source,
               case when g % 50 = 0 then 'newsletter' end as utm_source, case when g % 50 = 0 then 'email' end as utm_medium,
               case when g % 100 = 0 then 'spring' end as utm_campaign
        from generate_series(1, ${VIEWS}) g, (select array_agg(id order by n) ids from bench_blogs) b
      ) views
      group by flush, day, kind, blog_id, referrer_host, source, utm_source, utm_medium, utm_campaign
    `.execute(db),
  );
  await step(`${DAYS} days of daily rows (the site, every blog)`, async () => {
    await sql`
      insert into analytics_daily (blog_id, day, views, visitors, total_views, total_visitors)
      select blog_id, day, views, visitors, sum(views) over running, sum(visitors) over running
      from (
        select '' as blog_id, d::date as day, 20000 + (random() * 5000)::int as views, 7000 + (random() * 2000)::int as visitors from generate_series(${firstDaily}::date, ${today}::date, interval '1 day') d
        union all
        select b.id, d::date, (random() * 400)::int, (random() * 150)::int from bench_blogs b, generate_series(${firstDaily}::date, ${today}::date, interval '1 day') d
      ) daily
      window running as (partition by blog_id order by day)
    `.execute(db);
    await sql`
      insert into analytics_daily_sources (blog_id, dimension, day, value, views)
      select b.id, dim, d::date, v, (random() * 100)::int
      from bench_blogs b, generate_series(${firstDaily}::date, ${today}::date, interval '1 day') d,
           (values ('source', 'direct'), ('source', 'search'), ('source', 'social'), ('referrer', 'google.com'), ('referrer', 'news.ycombinator.com'), ('referrer', 'mastodon.social')) s(dim, v)
      union all
      select '', dim, d::date, v, (random() * 5000)::int
      from generate_series(${firstDaily}::date, ${today}::date, interval '1 day') d,
           (select 'referrer', 'referrer-' || i || '.example' from generate_series(1, 40) i
            union all select 'source', unnest(array['direct','search','social','fediverse','email','feeds','other'])
            union all select 'utm_source', 'newsletter' union all select 'utm_campaign', 'spring') s(dim, v)
    `.execute(db);
    await rollUpMonthlySources(db, firstDaily);
    await sql`
      insert into analytics_daily_readers (day, feed_subscribers, feed_fetchers, email_subscribers, fediverse_followers)
      select d::date, 300, 40, 500, 800 from generate_series(${firstDaily}::date, ${today}::date, interval '1 day') d
    `.execute(db);
  });
  await step('analyze', () => sql`analyze`.execute(db));
  const counts = await sql<{ raw: string; groups: string; daily: string; sources: string; monthly: string }>`
    select (select sum(cardinality(visitors)) from analytics_view_groups) raw, (select count(*) from analytics_view_groups) groups,
           (select count(*) from analytics_daily) daily, (select count(*) from analytics_daily_sources) sources,
           (select count(*) from analytics_monthly_sources) monthly
  `.execute(db);
  const sizes = counts.rows[0]!;
  console.log(`rows: ${sizes.raw} raw views in ${sizes.groups} groups, ${sizes.daily} daily, ${sizes.sources} daily sources, ${sizes.monthly} monthly sources`);

  const popular = (await sql<{ id: string; title: string }>`select b.id::text id, b.title from bench_blogs bb join blogs b on b.id::text = bb.id where bb.n = 1`.execute(db)).rows[0]!;
  const rows: string[] = [];
  const breakdown: string[] = [];
  const floor = await timed(SAMPLES, () => sql`select 1`.execute(db));
  rows.push(`| \`select 1\` (the floor) | | ${floor.p50.toFixed(1)} | ${floor.p95.toFixed(1)} | ${floor.max.toFixed(1)} |`);
  for (const days of [30, DAYS]) {
    const range = { from: addDays(today, -(days - 1)), to: today };
    const parts = {
      days: () => dailyViews(db, SITE, range),
      referrers: () => topValues(db, SITE, ['referrer'], range, 20),
      breakdowns: () => topValues(db, SITE, ['source', 'utm_source', 'utm_medium', 'utm_campaign'], range, 37),
      topBlogs: () => topBlogs(db, range, 10),
      readers: () => readersDays(db, range),
    };
    for (const [name, run] of Object.entries(parts)) {
      const part = await timed(Math.min(SAMPLES, 20), run);
      breakdown.push(`site ${days} days, ${name}: p50 ${part.p50.toFixed(1)} ms, p95 ${part.p95.toFixed(1)} ms`);
    }
  }
  for (const days of [7, 30, 90, DAYS]) {
    const range = { from: addDays(today, -(days - 1)), to: today };
    const site = await timed(SAMPLES, () => siteAnalytics(db, range));
    rows.push(`| site | ${days} days | ${site.p50.toFixed(1)} | ${site.p95.toFixed(1)} | ${site.max.toFixed(1)} |`);
    const blog = await timed(SAMPLES, () => blogAnalytics(db, popular, range));
    rows.push(`| a blog | ${days} days | ${blog.p50.toFixed(1)} | ${blog.p95.toFixed(1)} | ${blog.max.toFixed(1)} |`);
  }

  // The recurring work: today's raw rows rolled up again (the daily rows reach today, so the roll-up starts there).
  const todays = Number((await sql<{ n: string }>`select sum(cardinality(visitors)) n from analytics_view_groups where day = ${today}`.execute(db)).rows[0]!.n);
  const rolled = await timed(5, () => rollUp(db, { today, keepFrom: addDays(today, -RAW_DAYS) }));
  // The first roll-up (or the first after the job was off for a month): every kept day of raw rows.
  await sql`delete from analytics_daily where day >= ${firstRaw}`.execute(db);
  const fullStarted = performance.now();
  const full = await rollUp(db, { today, keepFrom: firstRaw });
  const fullMs = performance.now() - fullStarted;
  const dayBefore = Number((await sql<{ n: string }>`select sum(cardinality(visitors)) n from analytics_view_groups where day = ${firstRaw}`.execute(db)).rows[0]!.n);
  const pruneStarted = performance.now();
  const pruned = await pruneRaw(db, addDays(firstRaw, 1));
  const pruneMs = performance.now() - pruneStarted;
  const buffer = createAnalyticsBuffer({ db, siteHost: 'bench.example', flushMs: 60_000, log: { info() {}, warn() {} } as unknown as FastifyBaseLogger });
  const flush = await timed(10, async () => {
    for (let i = 0; i < 2_000; i++) {
      buffer.record({ type: 'view', day: today, kind: 'blog', blogId: popular.id, address: `10.0.${i >> 8}.${i & 255}`, userAgent: 'bench', referrerHost: null, source: 'direct', utmSource: null, utmMedium: null, utmCampaign: null });
    }
    await buffer.flush();
  });

  const report = [
    `Analytics on Postgres: ${sizes.raw} raw views in ${sizes.groups} groups (${RAW_DAYS} days), ${sizes.daily} daily rows, ${sizes.sources} daily source rows and ${sizes.monthly} monthly ones (${DAYS} days, ${BLOGS} blogs); ${SAMPLES} samples each, ms.`,
    '',
    '| answer | range | p50 | p95 | max |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...breakdown,
    '',
    `roll-up of today's ${todays} raw views (the 5-minute job): p50 ${rolled.p50.toFixed(0)} ms, p95 ${rolled.p95.toFixed(0)} ms (5 runs)`,
    `roll-up of all ${full.days} kept days (${sizes.raw} raw views): ${(fullMs / 1000).toFixed(1)} s`,
    `pruning one day (${dayBefore} raw views): ${pruneMs.toFixed(0)} ms (${pruned} rows: groups, and feed fetches)`,
    `flush of 2,000 counted views of one blog (salt, hashes, one statement): p50 ${flush.p50.toFixed(1)} ms, p95 ${flush.p95.toFixed(1)} ms`,
  ].join('\n');
  console.log(`\n${report}`);
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, `${report}\n`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
