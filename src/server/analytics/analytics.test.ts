import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { addDays, type BlogAnalytics, type SiteAnalytics } from '../../shared/analytics-schema.js';
import type { Blog } from '../../shared/blog-schema.js';
import type { Database } from '../db/schema.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { uniqueEmail, useSignedUpUsers, type TestUser } from '../testing/test-users.js';
import * as viewGroups from '../db/migrations/2026-12-06-01-analytics-view-groups.js';
import { createAnalyticsBuffer, visitorHash, visitorId } from './analytics-buffer.js';
import { todaysFigures } from './analytics.job.js';
import { monthsAndDaysOf } from './analytics.repository.js';
import { referrerHost, sourceOf } from './referrer-sources.js';

const MODERATOR = uniqueEmail('moderator');
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('analytics: counted on the server', () => {
  // The app's clock: the day a view is counted on, and the roll-up's today.
  let clock = new Date('2026-03-10T12:00:00Z');
  // The longest flush period: the test flushes itself.
  const t = useTestApp({ RESPONSE_CACHE_MB: '16', MODERATOR_EMAILS: MODERATOR, ANALYTICS_RAW_DAYS: '3', ANALYTICS_FLUSH_MS: '60000' }, { pages: 'vite', now: () => clock });
  const users = useSignedUpUsers(t, ['author', 'other', 'moderator'], { moderator: { email: MODERATOR } });
  let blog: Blog;

  const view = (url: string, headers: Record<string, string>, address: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers, remoteAddress: address });
  const api = async <T>(url: string, user?: TestUser) => {
    const response = await t.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {}, remoteAddress: '10.9.9.9' });
    return { status: response.statusCode, body: (response.headers['content-type']?.toString().startsWith('application/json') ? response.json() : undefined) as T, headers: response.headers, text: response.body };
  };
  const rollUp = async () => {
    await t.app.analytics!.flush();
    expect(await t.app.jobs.runNow('analytics-rollup')).toMatchObject({ status: 'done' });
  };
  const countRows = async (table: 'analytics_feed_fetches' | 'analytics_salts') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const rawViews = (day?: string) => rawViewsOf(t.database.db, day);

  it('a scripted sequence: two visitors, a returning one, a bot, DNT, a cache hit, a prefetch, HEAD and a feed reader', { timeout: 120_000 }, async () => {
    blog = await postBlog(t.app, users.author, { title: 'Counted without a cookie', blog: 'Words worth reading.' });
    const page = `/viewBlog?id=${blog.id}`;
    const first = await view(page, { 'user-agent': CHROME, referer: 'https://www.google.com/search?q=counted' }, '10.0.0.1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBe('miss');
    // Counted in memory: no database write in the request.
    await vi.waitFor(() => expect(t.app.analytics!.pending()).toBe(1));
    expect(await rawViews()).toBe(0);
    expect((await view(`${page}&utm_source=newsletter&utm_medium=email&utm_campaign=spring`, { 'user-agent': FIREFOX }, '10.0.0.2')).statusCode).toBe(200);
    // The first visitor comes back: answered from the response cache, and counted.
    const returning = await view(page, { 'user-agent': CHROME }, '10.0.0.1');
    expect(returning.headers['x-cache']).toBe('hit');
    // None of these is counted.
    expect((await view(page, { 'user-agent': GOOGLEBOT }, '66.249.66.1')).statusCode).toBe(200);
    expect((await view(page, { 'user-agent': FIREFOX, dnt: '1' }, '10.0.0.3')).statusCode).toBe(200);
    expect((await view(page, { 'user-agent': FIREFOX, 'sec-gpc': '1' }, '10.0.0.3')).statusCode).toBe(200);
    expect((await view(page, { 'user-agent': CHROME, 'sec-purpose': 'prefetch;prerender' }, '10.0.0.4')).statusCode).toBe(200);
    expect((await view(page, { 'user-agent': CHROME, purpose: 'prefetch' }, '10.0.0.4')).statusCode).toBe(200);
    expect((await view(page, { 'user-agent': CHROME }, '10.0.0.4', 'HEAD')).statusCode).toBe(200);
    expect((await view('/viewBlog?id=00000000-0000-4000-8000-000000000000', { 'user-agent': CHROME }, '10.0.0.4')).statusCode).toBe(404);
    // The home page, reached from the fediverse by the second visitor: the site's, not the blog's.
    expect((await view('/', { 'user-agent': FIREFOX, referer: 'https://mastodon.social/@someone/1234' }, '10.0.0.2')).statusCode).toBe(200);
    // A feed reader reports its subscribers (12, then 10 later that day: the day's figure is the larger), and a browser reads the feed.
    const feedbin = (count: number) => `Feedbin feed-id:1234 - ${count} subscribers`;
    expect((await view('/rss.xml', { 'user-agent': feedbin(12) }, '10.1.0.1')).statusCode).toBe(200);
    expect((await view('/rss.xml', { 'user-agent': feedbin(10) }, '10.1.0.1')).statusCode).toBe(200);
    expect((await view('/feed.json', { 'user-agent': FIREFOX }, '10.0.0.2')).statusCode).toBe(200);

    // Four views and three feed fetches held (or, on a very slow run, some already flushed by the timer).
    await vi.waitFor(async () => expect(t.app.analytics!.pending() + (await rawViews()) + (await countRows('analytics_feed_fetches'))).toBe(7));
    await rollUp();
    expect(await rawViews()).toBe(4);
    const raw = await t.database.db.selectFrom('analytics_view_groups').selectAll().execute();
    // Neither the address nor the user agent is stored anywhere in a row.
    expect(JSON.stringify(raw)).not.toMatch(/10\.0\.0|Chrome|Firefox|Mozilla/);

    const mine = await api<BlogAnalytics>(`/api/analytics/blogs/${blog.id}?from=2026-03-09&to=2026-03-10`, users.author);
    expect(mine.status).toBe(200);
    expect(mine.body.days).toEqual([
      { date: '2026-03-09', views: 0, visitors: 0 },
      { date: '2026-03-10', views: 3, visitors: 2 },
    ]);
    expect(mine.body.totals).toEqual({ views: 3, visitors: 2 });
    expect(mine.body.referrers).toEqual([{ host: 'google.com', views: 1 }]);
    expect(sorted(mine.body.sources)).toEqual([{ source: 'direct', views: 1 }, { source: 'email', views: 1 }, { source: 'search', views: 1 }]);
    expect(mine.body.campaigns).toEqual(
      expect.arrayContaining([
        { parameter: 'utm_source', value: 'newsletter', views: 1 },
        { parameter: 'utm_medium', value: 'email', views: 1 },
        { parameter: 'utm_campaign', value: 'spring', views: 1 },
      ]),
    );

    const site = await api<SiteAnalytics>('/api/analytics/site?from=2026-03-10&to=2026-03-10', users.moderator);
    expect(site.status).toBe(200);
    expect(site.body.days).toEqual([{ date: '2026-03-10', views: 4, visitors: 2 }]);
    expect(site.body.referrers).toEqual([{ host: 'google.com', views: 1 }, { host: 'mastodon.social', views: 1 }]);
    expect(sorted(site.body.sources)).toEqual([{ source: 'direct', views: 1 }, { source: 'email', views: 1 }, { source: 'fediverse', views: 1 }, { source: 'search', views: 1 }]);
    expect(site.body.topBlogs).toEqual([{ id: blog.id, title: 'Counted without a cookie', views: 3, visitors: 2 }]);
    expect(site.body.readers).toEqual([{ date: '2026-03-10', feedSubscribers: 12, feedFetchers: 2, emailSubscribers: 0, fediverseFollowers: 0 }]);
  });

  it('the daily salt: a new one each day, yesterday’s deleted, so a visitor cannot be followed across days', async () => {
    const saltsOn = async () => (await t.database.db.selectFrom('analytics_salts').select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day')).orderBy('day').execute()).map((row) => row.day);
    expect(await saltsOn()).toEqual(['2026-03-10']);
    clock = new Date('2026-03-11T08:00:00Z');
    expect((await view(`/viewBlog?id=${blog.id}`, { 'user-agent': CHROME }, '10.0.0.1')).statusCode).toBe(200);
    await t.app.analytics!.flush();
    expect(await saltsOn()).toEqual(['2026-03-10', '2026-03-11']);
    const visitorsOn = async (day: string) => (await sql<{ visitor: string }>`select unnest(visitors)::text as visitor from analytics_view_groups where blog_id = ${blog.id} and day = ${day}`.execute(t.database.db)).rows.map((row) => row.visitor);
    const [today] = await visitorsOn('2026-03-11');
    // The same address and browser as yesterday's first visitor, a hash nobody can match to it.
    expect(today).toBeDefined();
    expect(new Set(await visitorsOn('2026-03-10')).has(today!)).toBe(false);
    await rollUp();
    expect(await saltsOn()).toEqual(['2026-03-11']);
    const mine = await api<BlogAnalytics>(`/api/analytics/blogs/${blog.id}?from=2026-03-10&to=2026-03-11`, users.author);
    expect(mine.body.days).toEqual([
      { date: '2026-03-10', views: 3, visitors: 2 },
      { date: '2026-03-11', views: 1, visitors: 1 },
    ]);
  });

  it('raw rows are pruned after ANALYTICS_RAW_DAYS; the daily figures stay, and a second roll-up changes nothing', async () => {
    clock = new Date('2026-03-14T09:00:00Z');
    await rollUp();
    // Kept: the three days before today (03-11 onwards); 03-10's four views went.
    expect(await rawViews()).toBe(1);
    expect(await countRows('analytics_feed_fetches')).toBe(0);
    const range = `/api/analytics/site?from=2026-03-10&to=2026-03-14`;
    const after = await api<SiteAnalytics>(range, users.moderator);
    expect(after.body.days.map((day) => day.views)).toEqual([4, 1, 0, 0, 0]);
    expect(after.body.totals).toEqual({ views: 5, visitors: 3 });
    await rollUp();
    expect((await api<SiteAnalytics>(range, users.moderator)).body).toEqual(after.body);
  });

  it('who sees what: the author and moderators a blog’s figures, moderators alone the site’s', async () => {
    const blogUrl = `/api/analytics/blogs/${blog.id}`;
    expect((await api(blogUrl)).status).toBe(401);
    expect((await api(blogUrl, users.other)).status).toBe(403);
    expect((await api(blogUrl, users.author)).status).toBe(200);
    expect((await api(blogUrl, users.moderator)).status).toBe(200);
    expect((await api('/api/analytics/blogs/not-an-id', users.author)).status).toBe(404);
    for (const user of [undefined, users.author, users.other]) expect((await api('/api/analytics/site', user)).status).toBe(404);
    const answer = await api<SiteAnalytics>('/api/analytics/site', users.moderator);
    expect(answer.status).toBe(200);
    // The last 30 days by default.
    expect(answer.body.days).toHaveLength(30);
    expect(answer.body.to).toBe('2026-03-14');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const bad = await api<{ error: string; message: string }>('/api/analytics/site?from=2026-03-10&to=2026-03-01', users.moderator);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTypeOf('string');
    expect((await api('/api/analytics/site?from=2026-02-30', users.moderator)).status).toBe(400);
    const csv = await api('/api/analytics/site.csv?from=2026-03-10&to=2026-03-11', users.moderator);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')).toEqual([
      'date,views,visitors,feed_subscribers,feed_fetchers,email_subscribers,fediverse_followers',
      '2026-03-10,4,2,12,2,0,0',
      '2026-03-11,1,1,0,0,0,0',
      '',
      'referrer,views',
      'google.com,1',
      'mastodon.social,1',
      '',
      'source,views',
      'direct,2',
      'email,1',
      'fediverse,1',
      'search,1',
      '',
      'blog_id,blog,views,visitors',
      `${blog.id},Counted without a cookie,4,3`,
      '',
    ]);
    expect((await api('/api/analytics/site.csv', users.other)).status).toBe(404);
  });

  it('a day rolled up again (a late flush) keeps every running total right, so a range’s top blogs still add up its days', async () => {
    const second = await postBlog(t.app, users.other, { title: 'Read later', blog: 'More words.' });
    clock = new Date('2026-03-15T10:00:00Z');
    expect((await view(`/viewBlog?id=${blog.id}`, { 'user-agent': CHROME }, '10.0.0.5')).statusCode).toBe(200);
    await rollUp();
    // Two more views that day, written by a flush after midnight: the next roll-up starts again from 03-15.
    expect((await view(`/viewBlog?id=${second.id}`, { 'user-agent': CHROME }, '10.0.0.6')).statusCode).toBe(200);
    // At its readable address (issue 58): the same blog's view.
    expect((await view(`/blog/${second.slug}`, { 'user-agent': FIREFOX }, '10.0.0.7')).statusCode).toBe(200);
    clock = new Date('2026-03-16T00:01:00Z');
    expect((await view(`/viewBlog?id=${blog.id}`, { 'user-agent': CHROME }, '10.0.0.8')).statusCode).toBe(200);
    await rollUp();

    // Each row's totals are the sums of its blog's days up to it.
    const daily = await t.database.db
      .selectFrom('analytics_daily')
      .select(['blog_id', 'views', 'visitors', 'total_views', 'total_visitors'])
      .orderBy('blog_id')
      .orderBy('day')
      .execute();
    const running = new Map<string, { views: number; visitors: number }>();
    for (const row of daily) {
      const sum = running.get(row.blog_id) ?? { views: 0, visitors: 0 };
      sum.views += row.views;
      sum.visitors += row.visitors;
      running.set(row.blog_id, sum);
      expect({ blog: row.blog_id, views: Number(row.total_views), visitors: Number(row.total_visitors) }).toEqual({ blog: row.blog_id, ...sum });
    }

    const topOf = async (from: string, to: string) => (await api<SiteAnalytics>(`/api/analytics/site?from=${from}&to=${to}`, users.moderator)).body.topBlogs;
    expect(await topOf('2026-03-16', '2026-03-16')).toEqual([{ id: blog.id, title: 'Counted without a cookie', views: 1, visitors: 1 }]);
    expect(await topOf('2026-03-15', '2026-03-15')).toEqual([
      { id: second.id, title: 'Read later', views: 2, visitors: 2 },
      { id: blog.id, title: 'Counted without a cookie', views: 1, visitors: 1 },
    ]);
    expect(await topOf('2026-03-10', '2026-03-16')).toEqual([
      { id: blog.id, title: 'Counted without a cookie', views: 6, visitors: 5 },
      { id: second.id, title: 'Read later', views: 2, visitors: 2 },
    ]);
    // No daily row in the range: not among the top blogs.
    expect(await topOf('2026-03-12', '2026-03-14')).toEqual([]);
    // The same figures as the blog's own days.
    expect((await api<BlogAnalytics>(`/api/analytics/blogs/${blog.id}?from=2026-03-10&to=2026-03-16`, users.author)).body.totals).toEqual({ views: 6, visitors: 5 });

    // Whole months are read from the monthly sums, summed again from the daily rows (03-10's raw rows are gone).
    const referrersOf = async (from: string, to: string) => (await api<SiteAnalytics>(`/api/analytics/site?from=${from}&to=${to}`, users.moderator)).body.referrers;
    const referrers = [{ host: 'google.com', views: 1 }, { host: 'mastodon.social', views: 1 }];
    expect(await referrersOf('2026-03-10', '2026-03-16')).toEqual(referrers);
    expect(await referrersOf('2026-03-01', '2026-03-31')).toEqual(referrers);
    expect(await referrersOf('2026-02-15', '2026-04-10')).toEqual(referrers);
    expect(await referrersOf('2026-03-11', '2026-04-30')).toEqual([]);

    // A view of 03-15 written after 03-16's first roll-up (a process's last flush of the day came
    // late): a roll-up in the first minutes of a day takes yesterday again.
    const late = { type: 'view', day: '2026-03-15', kind: 'blog', blogId: second.id, address: '10.0.0.9', userAgent: CHROME, referrerHost: null, utmSource: null, utmMedium: null, utmCampaign: null } as const;
    t.app.analytics!.record({ ...late, source: sourceOf(null, { source: null, medium: null }) });
    clock = new Date('2026-03-16T00:06:00Z');
    await rollUp();
    expect((await topOf('2026-03-15', '2026-03-15'))[0]).toEqual({ id: second.id, title: 'Read later', views: 3, visitors: 3 });
    clock = new Date('2026-03-16T00:20:00Z');
    t.app.analytics!.record({ ...late, address: '10.0.0.10', source: sourceOf(null, { source: null, medium: null }) });
    await rollUp();
    // Past the window, 03-15 is closed: what is written for it after is not taken up again.
    expect((await topOf('2026-03-15', '2026-03-15'))[0]).toEqual({ id: second.id, title: 'Read later', views: 3, visitors: 3 });
  });

  it('today’s figures are at most a minute old: a view counted is in the next answer for a range that holds today, the CSV’s too (issue 59)', async () => {
    clock = new Date('2026-03-17T10:00:00Z');
    expect((await view(`/viewBlog?id=${blog.id}`, { 'user-agent': CHROME, referer: 'https://duckduckgo.com/' }, '10.0.0.11')).statusCode).toBe(200);
    await vi.waitFor(() => expect(t.app.analytics!.pending()).toBe(1));
    // No flush and no roll-up by the test: the dashboard's read does both.
    const site = await api<SiteAnalytics>('/api/analytics/site?from=2026-03-16&to=2026-03-17', users.moderator);
    expect(site.body.days.at(-1)).toEqual({ date: '2026-03-17', views: 1, visitors: 1 });
    expect(site.body.referrers).toContainEqual({ host: 'duckduckgo.com', views: 1 });
    expect(t.app.analytics!.pending()).toBe(0);
    expect((await view(`/viewBlog?id=${blog.id}`, { 'user-agent': FIREFOX }, '10.0.0.12')).statusCode).toBe(200);
    await vi.waitFor(() => expect(t.app.analytics!.pending()).toBe(1));
    const mine = await api<BlogAnalytics>(`/api/analytics/blogs/${blog.id}?from=2026-03-17&to=2026-03-17`, users.author);
    expect(mine.body.days).toEqual([{ date: '2026-03-17', views: 2, visitors: 2 }]);

    // The CSV: the days, the referrers, the sources and the top blogs of the range, each a section with its header.
    expect((await view('/', { 'user-agent': CHROME, referer: 'https://mastodon.social/@a/1' }, '10.0.0.13')).statusCode).toBe(200);
    await vi.waitFor(() => expect(t.app.analytics!.pending()).toBe(1));
    const csv = await api('/api/analytics/site.csv?from=2026-03-16&to=2026-03-17', users.moderator);
    expect(csv.status).toBe(200);
    expect(csv.text.split('\r\n\r\n').map((section) => section.split('\r\n').filter(Boolean))).toEqual([
      ['date,views,visitors,feed_subscribers,feed_fetchers,email_subscribers,fediverse_followers', '2026-03-16,1,1,0,0,0,0', '2026-03-17,3,3,0,0,0,0'],
      ['referrer,views', 'duckduckgo.com,1', 'mastodon.social,1'],
      ['source,views', 'direct,2', 'fediverse,1', 'search,1'],
      ['blog_id,blog,views,visitors', `${blog.id},Counted without a cookie,3,3`],
    ]);
  });

  it('a read rolls today up again only when this process’s last roll-up is older than a minute less the flush period', async () => {
    let now = new Date('2026-03-17T11:00:00Z');
    const flushes = vi.fn(async () => ({ views: 0, feedFetches: 0 }));
    const buffer = { flush: flushes } as unknown as Parameters<typeof todaysFigures>[0]['buffer'];
    const freshen = todaysFigures({ db: t.database.db, now: () => now, buffer, flushMs: 5_000, rawDays: 3 });
    await freshen({ to: '2026-03-17' });
    expect(flushes).toHaveBeenCalledTimes(1);
    // A range that ends before today: nothing to do.
    await freshen({ to: '2026-03-16' });
    now = new Date(now.getTime() + 54_999);
    await freshen({ to: '2026-03-17' });
    expect(flushes).toHaveBeenCalledTimes(1);
    // 55 s after (and the other processes' views at most 5 s old): written and rolled up again.
    now = new Date(now.getTime() + 1);
    await Promise.all([freshen({ to: '2026-03-17' }), freshen({ to: '2026-03-18' })]);
    expect(flushes).toHaveBeenCalledTimes(2);
  });

  it('a flush of many statements writes all of them or none, and a failed one is kept whole for the next', async () => {
    const counted = (i: number) =>
      ({ type: 'view', day: '2026-04-01', kind: 'home', blogId: null, address: `10.4.${i >> 8}.${i & 255}`, userAgent: CHROME, referrerHost: null, source: 'direct', utmSource: null, utmMedium: null, utmCampaign: null }) as const;
    const viewsOn = () => rawViews('2026-04-01');
    // A buffer of its own beside the app's: 6,000 views (groups of at most 2,500, a statement each),
    // one of them a page kind the table refuses, in the last statement.
    const failing = createAnalyticsBuffer({ db: t.database.db, siteHost: 'localhost', flushMs: 60_000, log: t.app.log });
    for (let i = 0; i < 6_000; i++) failing.record(i === 5_400 ? ({ ...counted(i), kind: 'nowhere' } as never) : counted(i));
    // (The flush that 2,000 held views start on their own, then this one: each writes nothing.)
    await failing.flush();
    expect(await viewsOn()).toBe(0);
    expect(failing.pending()).toBe(6_000);
    const buffer = createAnalyticsBuffer({ db: t.database.db, siteHost: 'localhost', flushMs: 60_000, log: t.app.log });
    for (let i = 0; i < 6_000; i++) {
      buffer.record(counted(i));
      // In the middle of the run, a view of the same page from a search engine: a group of its own.
      if (i === 3_000) buffer.record({ ...counted(7), referrerHost: 'google.com', source: 'search' });
    }
    // A view of the same page by a visitor already counted: a second element, not a second visitor.
    buffer.record(counted(0));
    await buffer.flush();
    expect(buffer.pending()).toBe(0);
    expect(await viewsOn()).toBe(6_002);
    const groups = await sql<{ views: number; referrer: string | null }>`
      select cardinality(visitors) as views, referrer_host as referrer from analytics_view_groups where day = '2026-04-01' order by 1 desc`.execute(t.database.db);
    expect(groups.rows).toEqual([
      { views: 2_500, referrer: null },
      { views: 2_500, referrer: null },
      { views: 1_001, referrer: null },
      { views: 1, referrer: 'google.com' },
    ]);
    const visitors = await sql<{ n: number }>`select count(distinct v)::int as n from analytics_view_groups, unnest(visitors) v where day = '2026-04-01'`.execute(t.database.db);
    expect(visitors.rows).toEqual([{ n: 6_000 }]);
  });

  it('a buffer that is full refuses further views and says how many in the log', { timeout: 60_000 }, async () => {
    const log = { info: vi.fn(), warn: vi.fn() };
    const buffer = createAnalyticsBuffer({ db: t.database.db, siteHost: 'localhost', flushMs: 60_000, log: log as never });
    const counted = (i: number) =>
      ({ type: 'view', day: '2026-04-02', kind: 'home', blogId: null, address: `10.5.${i >> 8}.${i & 255}`, userAgent: CHROME, referrerHost: null, source: 'direct', utmSource: null, utmMedium: null, utmCampaign: null }) as const;
    // In one go, before any flush can take them: 40,000 held (all the buffer keeps), 25 refused.
    for (let i = 0; i < 40_025; i++) buffer.record(counted(i));
    expect(buffer.pending()).toBe(40_000);
    await buffer.flush();
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]![0]).toEqual({ dropped: 25 });
    expect(buffer.pending()).toBe(0);
    expect(await rawViews('2026-04-02')).toBe(40_000);
  });
});

describe('analytics dates: a real day in a fixed window, or a 400 in words (issue 56)', () => {
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR });
  const users = useSignedUpUsers(t, ['author', 'moderator'], { moderator: { email: MODERATOR } });
  const tomorrow = addDays(new Date().toISOString().slice(0, 10), 1);
  // Each answered 500 once: the date arithmetic wrote `+010000-…` or `-000001-…` and the database refused it.
  const BAD: [string, RegExp][] = [
    ['from=9999-12-31', /^from must be a day from 2000-01-01 to \d{4}-\d{2}-\d{2}; 9999-12-31 is not\.$/],
    ['to=0001-01-01', /^to must be a day from 2000-01-01 to .*; 0001-01-01 is not\.$/],
    ['to=9999-12-31', /^to must be a day from 2000-01-01/],
    ['from=1999-12-31', /^from must be a day from 2000-01-01/],
    [`from=${addDays(tomorrow, 1)}`, /^from must be a day from 2000-01-01/],
    ['from=2026-02-30', /^from 2026-02-30 is not a day of the calendar\.$/],
    ['to=2026-13-01', /^to 2026-13-01 is not a day of the calendar\.$/],
    ['from=%2B010000-01-01', /^from must be a date as YYYY-MM-DD/],
    ['from=2026-3-1', /^from must be a date as YYYY-MM-DD/],
    ['from=2026-03-10&to=2026-03-01', /^from must not be after to\.$/],
    ['from=2000-01-01&to=2026-03-01', /^A range may span 800 days at most\.$/],
  ];

  it('refuses each on the site’s figures, the CSV and a blog’s figures; takes the window’s ends', async () => {
    const blog = await postBlog(t.app, users.author, { title: 'Dated', blog: 'Words.' });
    const get = (url: string, user: TestUser) => t.app.inject({ url, headers: { cookie: user.cookie }, remoteAddress: '10.9.9.10' });
    for (const [route, user] of [['/api/analytics/site', users.moderator], ['/api/analytics/site.csv', users.moderator], [`/api/analytics/blogs/${blog.id}`, users.author]] as const) {
      for (const [query, message] of BAD) {
        const response = await get(`${route}?${query}`, user);
        expect(response.statusCode, `${route}?${query}: ${response.body}`).toBe(400);
        expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: expect.stringMatching(message) });
      }
      for (const query of ['from=2000-01-01', 'to=2000-01-01', `to=${tomorrow}`, `from=${tomorrow}`, `from=2024-02-29&to=${addDays('2024-02-29', 799)}`]) {
        const response = await get(`${route}?${query}`, user);
        expect(response.statusCode, `${route}?${query}: ${response.body}`).toBe(200);
      }
    }
  });
});

describe('analytics off (ANALYTICS=false)', () => {
  it('counts nothing and runs no roll-up', { timeout: 60_000 }, async () => {
    const t = await createTestApp({ ANALYTICS: 'false', RESPONSE_CACHE_MB: '16' }, { pages: 'vite' });
    try {
      expect(t.app.analytics).toBeNull();
      expect((await t.app.inject({ method: 'GET', url: '/', headers: { 'user-agent': CHROME }, remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/rss.xml', headers: { 'user-agent': 'Feedly/1.0 (+http://www.feedly.com/fetcher.html; 12 subscribers; )' } })).statusCode).toBe(200);
      expect(t.app.jobs.stats().map((job) => job.name)).not.toContain('analytics-rollup');
      expect(await t.database.db.selectFrom('analytics_view_groups').selectAll().execute()).toEqual([]);
      expect(await t.database.db.selectFrom('analytics_feed_fetches').selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('a range as whole months and the days at its ends', () => {
  it.each([
    ['2026-03-10', '2026-03-16', null, [['2026-03-10', '2026-03-16']]],
    ['2026-03-01', '2026-03-31', ['2026-03-01', '2026-03-31'], []],
    ['2026-02-15', '2026-04-10', ['2026-03-01', '2026-03-31'], [['2026-02-15', '2026-02-28'], ['2026-04-01', '2026-04-10']]],
    ['2024-01-31', '2024-03-01', ['2024-02-01', '2024-02-29'], [['2024-01-31', '2024-01-31'], ['2024-03-01', '2024-03-01']]],
    ['2025-12-02', '2026-01-30', null, [['2025-12-02', '2026-01-30']]],
  ] as const)('%s to %s', (from, to, months, days) => {
    expect(monthsAndDaysOf({ from, to })).toEqual({
      months: months && { from: months[0], to: months[1] },
      days: days.map(([first, last]) => ({ from: first, to: last })),
    });
  });
});

describe('where readers came from', () => {
  it.each([
    [null, {}, 'direct'],
    ['google.com', {}, 'search'],
    ['news.google.com', {}, 'search'],
    ['duckduckgo.com', {}, 'search'],
    ['t.co', {}, 'social'],
    ['news.ycombinator.com', {}, 'social'],
    ['mastodon.social', {}, 'fediverse'],
    ['mastodon.example.org', {}, 'fediverse'],
    ['mail.google.com', {}, 'email'],
    ['outlook.live.com', {}, 'email'],
    ['feedly.com', {}, 'feeds'],
    ['someones-blog.example', {}, 'other'],
    [null, { medium: 'email' }, 'email'],
    [null, { medium: 'rss' }, 'feeds'],
    ['example.net', { source: 'mastodon' }, 'fediverse'],
  ] as const)('%s %o → %s', (host, utm, expected) => {
    expect(sourceOf(host, { source: 'source' in utm ? utm.source : null, medium: 'medium' in utm ? utm.medium : null })).toBe(expected);
  });
  it('keeps the referrer as its host only, and none for the site’s own pages', () => {
    expect(referrerHost('https://www.Example.com/a/private/path?q=secret#x', 'localhost')).toBe('example.com');
    expect(referrerHost(`${TEST_PUBLIC_URL}/viewBlog?id=1`, 'localhost')).toBeNull();
    expect(referrerHost('not a url', 'localhost')).toBeNull();
  });
});

/** Raw views written (of one day, or all): each group's visitors, one per view. */
async function rawViewsOf(db: Kysely<Database>, day?: string): Promise<number> {
  const views = await db
    .selectFrom('analytics_view_groups')
    .select(sql<string>`coalesce(sum(cardinality(visitors)), 0)`.as('n'))
    .$if(day !== undefined, (query) => query.where('day', '=', day!))
    .executeTakeFirstOrThrow();
  return Number(views.n);
}

function sorted<T extends { source: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.source.localeCompare(b.source));
}

describe('a visitor’s hash', () => {
  it('is the digest of the salt and each part in turn, as every process (and every earlier version) makes it', () => {
    const parts = ['10.0.0.1', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0', 'example.com'];
    const stepwise = createHash('sha256').update('the day’s salt');
    for (const part of parts) stepwise.update('\0').update(part);
    expect(visitorHash('the day’s salt', parts)).toBe(stepwise.digest('base64url').slice(0, 22));
    expect(visitorHash('another day’s salt', parts)).not.toBe(visitorHash('the day’s salt', parts));
    // A view's visitor is the first 16 bytes of the same digest.
    const digest = createHash('sha256').update(['the day’s salt', ...parts].join('\0')).digest();
    expect(visitorId('the day’s salt', parts)).toBe(digest.subarray(0, 16).toString('hex'));
  });
});

describe('the migration to view groups (2026-12-06-01)', () => {
  const t = useTestApp();

  it('moves every raw view of an earlier version into groups, each visitor the same 16 bytes a view of today gets', async () => {
    const db = t.database.db;
    // The database as it was before 2026-12-06-01, with raw views in it: a row per view, its visitor the hash's text.
    await viewGroups.down(db);
    const salt = 'an earlier day’s salt';
    const visitor = (address: string) => [address, CHROME, 'localhost'];
    const old = (day: string, address: string, blogId: string | null, referrer: string | null) => ({
      day,
      kind: blogId ? 'blog' : 'home',
      blog_id: blogId,
      visitor: visitorHash(salt, visitor(address)),
      referrer_host: referrer,
      source: referrer ? 'search' : 'direct',
      utm_source: null,
      utm_medium: null,
      utm_campaign: referrer ? null : 'spring',
    });
    const blogId = '6b0f8d6e-1c4e-4b7a-9a57-0d1f2c3b4a59';
    const rows = [
      old('2026-05-01', '10.7.0.1', blogId, 'google.com'),
      old('2026-05-01', '10.7.0.2', blogId, 'google.com'),
      old('2026-05-01', '10.7.0.1', blogId, 'google.com'),
      old('2026-05-01', '10.7.0.1', null, null),
      old('2026-05-02', '10.7.0.3', blogId, null),
    ];
    await sql`insert into analytics_views select * from json_populate_recordset(null::analytics_views, ${JSON.stringify(rows)}::json)`.execute(db);

    await viewGroups.up(db);
    const groups = await sql<{ day: string; kind: string; blog_id: string | null; referrer_host: string | null; source: string; utm_campaign: string | null; visitors: string }>`
      select to_char(day, 'YYYY-MM-DD') as day, kind, blog_id, referrer_host, source, utm_campaign, array_to_string(visitors, ',') as visitors
      from analytics_view_groups order by day, kind, blog_id`.execute(db);
    const id = (address: string) => visitorId(salt, visitor(address)).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
    expect(groups.rows.map((group) => ({ ...group, visitors: group.visitors.split(',').sort() }))).toEqual([
      { day: '2026-05-01', kind: 'blog', blog_id: blogId, referrer_host: 'google.com', source: 'search', utm_campaign: null, visitors: [id('10.7.0.1'), id('10.7.0.1'), id('10.7.0.2')].sort() },
      { day: '2026-05-01', kind: 'home', blog_id: null, referrer_host: null, source: 'direct', utm_campaign: 'spring', visitors: [id('10.7.0.1')] },
      { day: '2026-05-02', kind: 'blog', blog_id: blogId, referrer_host: null, source: 'direct', utm_campaign: 'spring', visitors: [id('10.7.0.3')] },
    ]);
    expect(await rawViewsOf(db)).toBe(5);
    expect(await sql`select * from information_schema.tables where table_name = 'analytics_views'`.execute(db).then((result) => result.rows)).toEqual([]);
  });
});
