import { z } from 'zod';
import { calendarDaySchema } from './calendar-day.js';

/** Where readers came from: the classes of the dashboards' "Where readers came from". */
export const ANALYTICS_SOURCES = ['search', 'social', 'fediverse', 'email', 'feeds', 'other', 'direct'] as const;
export type AnalyticsSource = (typeof ANALYTICS_SOURCES)[number];
export const ANALYTICS_SOURCE_LABELS: Record<AnalyticsSource, string> = {
  search: 'Search engines',
  social: 'Social sites',
  fediverse: 'The fediverse',
  email: 'E-mail',
  feeds: 'Feeds',
  other: 'Other websites',
  direct: 'Direct (no referrer)',
};

/** The ranges the dashboards offer besides a custom one, in days. */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
/** The longest range one request may ask for (a little over two years). */
export const ANALYTICS_MAX_DAYS = 800;

/**
 * `?from=YYYY-MM-DD&to=YYYY-MM-DD` (days in UTC, both included; each a real day from 2000-01-01 to
 * tomorrow: `calendar-day.ts`); unset: the last 30 days. The dashboards' range form reads the URL
 * with it too, so the page and the API agree on what a range is.
 */
export const analyticsRangeQuerySchema = z
  .object({ from: calendarDaySchema('from').optional(), to: calendarDaySchema('to').optional() })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { message: 'from must not be after to.', path: ['from'] })
  .refine((range) => !range.from || !range.to || daysBetween(range.from, range.to) < ANALYTICS_MAX_DAYS, {
    message: `A range may span ${ANALYTICS_MAX_DAYS} days at most.`,
    path: ['to'],
  });
export type AnalyticsRangeQuery = z.infer<typeof analyticsRangeQuerySchema>;

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The day `days` after (or before, negative) `day`, as YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const analyticsDaySchema = z.object({ date: z.string(), views: z.number().int(), visitors: z.number().int() });
export const analyticsReferrerSchema = z.object({ host: z.string(), views: z.number().int() });
export const analyticsSourceSchema = z.object({ source: z.enum(ANALYTICS_SOURCES), views: z.number().int() });
export const analyticsCampaignSchema = z.object({
  parameter: z.enum(['utm_source', 'utm_medium', 'utm_campaign']),
  value: z.string(),
  views: z.number().int(),
});
export const analyticsTotalsSchema = z.object({
  views: z.number().int(),
  /** The sum of each day's visitors: a new salt every day means nobody is followed from one day to the next. */
  visitors: z.number().int(),
});

const reportFields = {
  from: z.string(),
  to: z.string(),
  totals: analyticsTotalsSchema,
  /** Every day of the range, oldest first (days without views have zeros). */
  days: z.array(analyticsDaySchema),
  /** Referring hosts, most views first. */
  referrers: z.array(analyticsReferrerSchema),
  sources: z.array(analyticsSourceSchema),
  campaigns: z.array(analyticsCampaignSchema),
};

export const blogAnalyticsSchema = z.object({ blogId: z.string(), title: z.string(), ...reportFields });
export type BlogAnalytics = z.infer<typeof blogAnalyticsSchema>;

export const analyticsReadersDaySchema = z.object({
  date: z.string(),
  /** The sum over feed readers of the largest `N subscribers` each reported that day. */
  feedSubscribers: z.number().int(),
  /** Distinct clients that fetched a feed that day. */
  feedFetchers: z.number().int(),
  /** Confirmed e-mail subscriptions, as counted that day (null before counting began). */
  emailSubscribers: z.number().int().nullable(),
  fediverseFollowers: z.number().int().nullable(),
});
export type AnalyticsReadersDay = z.infer<typeof analyticsReadersDaySchema>;

export const siteAnalyticsSchema = z.object({
  ...reportFields,
  topBlogs: z.array(z.object({ id: z.string(), title: z.string(), views: z.number().int(), visitors: z.number().int() })),
  /** Only days on which readers were counted. */
  readers: z.array(analyticsReadersDaySchema),
});
export type SiteAnalytics = z.infer<typeof siteAnalyticsSchema>;
