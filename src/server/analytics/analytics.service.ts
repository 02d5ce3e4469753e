import type { Kysely } from 'kysely';
import {
  addDays,
  ANALYTICS_SOURCES,
  daysBetween,
  type AnalyticsRangeQuery,
  type AnalyticsSource,
  type BlogAnalytics,
  type SiteAnalytics,
} from '../../shared/analytics-schema.js';
import type { Database } from '../db/schema.js';
import { dailyViews, readersDays, SITE, topBlogs, topValues, type Range } from './analytics.repository.js';
import { dayOf } from './analytics.job.js';

const REFERRERS = 20;
const CAMPAIGNS = 30;
const TOP_BLOGS = 10;

/** The asked range, or the last 30 days (today included), in UTC days. */
export function rangeOf(query: AnalyticsRangeQuery, now: Date): Range {
  const to = query.to ?? (query.from ? addDays(query.from, 29) : dayOf(now));
  const from = query.from ?? addDays(to, -29);
  return { from, to };
}

async function report(db: Kysely<Database>, scope: string, range: Range) {
  const [rows, referrers, breakdowns] = await Promise.all([
    dailyViews(db, scope, range),
    topValues(db, scope, ['referrer'], range, REFERRERS),
    topValues(db, scope, ['source', 'utm_source', 'utm_medium', 'utm_campaign'], range, CAMPAIGNS + ANALYTICS_SOURCES.length),
  ]);
  const byDay = new Map(rows.map((row) => [row.date, row]));
  const days = Array.from({ length: daysBetween(range.from, range.to) + 1 }, (_, i) => {
    const date = addDays(range.from, i);
    const row = byDay.get(date);
    return { date, views: row?.views ?? 0, visitors: row?.visitors ?? 0 };
  });
  const sources = breakdowns
    .filter((row) => row.dimension === 'source' && (ANALYTICS_SOURCES as readonly string[]).includes(row.value))
    .map((row) => ({ source: row.value as AnalyticsSource, views: Number(row.views) }));
  const campaigns = breakdowns
    .filter((row) => row.dimension !== 'source')
    .slice(0, CAMPAIGNS)
    .map((row) => ({ parameter: row.dimension as 'utm_source' | 'utm_medium' | 'utm_campaign', value: row.value, views: Number(row.views) }));
  return {
    from: range.from,
    to: range.to,
    totals: { views: days.reduce((sum, day) => sum + day.views, 0), visitors: days.reduce((sum, day) => sum + day.visitors, 0) },
    days,
    referrers: referrers.map((row) => ({ host: row.value, views: Number(row.views) })),
    sources,
    campaigns,
  };
}

export async function blogAnalytics(db: Kysely<Database>, blog: { id: string; title: string }, range: Range): Promise<BlogAnalytics> {
  return { blogId: blog.id, title: blog.title, ...(await report(db, blog.id, range)) };
}

export async function siteAnalytics(db: Kysely<Database>, range: Range): Promise<SiteAnalytics> {
  const [base, top, readers] = await Promise.all([report(db, SITE, range), topBlogs(db, range, TOP_BLOGS), readersDays(db, range)]);
  return {
    ...base,
    topBlogs: top.map((row) => ({ id: row.id, title: row.title, views: Number(row.views), visitors: Number(row.visitors) })),
    readers: readers.map((row) => ({
      date: row.date,
      feedSubscribers: row.feed_subscribers,
      feedFetchers: row.feed_fetchers,
      emailSubscribers: row.email_subscribers,
      fediverseFollowers: row.fediverse_followers,
    })),
  };
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  // A cell a spreadsheet would run as a formula is quoted and prefixed (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/**
 * The site's figures of a range as CSV, in sections parted by an empty line, each with its header
 * row: the days (views, visitors and the readers of each day), the referrers, where readers came
 * from (the source's key, as `ANALYTICS_SOURCES` names it) and the top blogs.
 */
export function siteCsv(analytics: SiteAnalytics): string {
  const readers = new Map(analytics.readers.map((day) => [day.date, day]));
  const row = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(',');
  const days = [row(['date', 'views', 'visitors', 'feed_subscribers', 'feed_fetchers', 'email_subscribers', 'fediverse_followers'])];
  for (const day of analytics.days) {
    const r = readers.get(day.date);
    days.push(row([day.date, day.views, day.visitors, r?.feedSubscribers ?? null, r?.feedFetchers ?? null, r?.emailSubscribers ?? null, r?.fediverseFollowers ?? null]));
  }
  const sections = [
    days,
    [row(['referrer', 'views']), ...analytics.referrers.map((referrer) => row([referrer.host, referrer.views]))],
    [row(['source', 'views']), ...analytics.sources.map((source) => row([source.source, source.views]))],
    [row(['blog_id', 'blog', 'views', 'visitors']), ...analytics.topBlogs.map((blog) => row([blog.id, blog.title, blog.views, blog.visitors]))],
  ];
  return `${sections.map((lines) => lines.join('\r\n')).join('\r\n\r\n')}\r\n`;
}
