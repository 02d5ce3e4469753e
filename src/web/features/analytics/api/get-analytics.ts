import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { BlogAnalytics, SiteAnalytics } from '../../../../shared/analytics-schema';
import { apiFetch } from '../../../lib/api-client';

export interface AnalyticsRange {
  from: string;
  to: string;
}

const rangeQuery = ({ from, to }: AnalyticsRange) => `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

export function getSiteAnalytics(range: AnalyticsRange, signal?: AbortSignal) {
  return apiFetch<SiteAnalytics>(`/api/analytics/site?${rangeQuery(range)}`, { signal });
}

export function siteAnalyticsQueryOptions(range: AnalyticsRange) {
  return queryOptions({ queryKey: ['analytics', 'site', range.from, range.to], queryFn: ({ signal }) => getSiteAnalytics(range, signal), retry: false });
}

/** The site's figures (moderators only: everyone else gets a 404 from the server). */
export function useSiteAnalytics(range: AnalyticsRange) {
  return useQuery({ ...siteAnalyticsQueryOptions(range), placeholderData: keepPreviousData });
}

/** Where the dashboard's CSV export downloads from (a plain link: the browser sends the session cookie). */
export const siteAnalyticsCsvUrl = (range: AnalyticsRange) => `/api/analytics/site.csv?${rangeQuery(range)}`;

export function getBlogAnalytics(id: string, range: AnalyticsRange, signal?: AbortSignal) {
  return apiFetch<BlogAnalytics>(`/api/analytics/blogs/${encodeURIComponent(id)}?${rangeQuery(range)}`, { signal });
}

export function blogAnalyticsQueryOptions(id: string, range: AnalyticsRange) {
  return queryOptions({ queryKey: ['analytics', 'blog', id, range.from, range.to], queryFn: ({ signal }) => getBlogAnalytics(id, range, signal), retry: false });
}

/** One blog's figures, for its author (and moderators). */
export function useBlogAnalytics(id: string, range: AnalyticsRange) {
  return useQuery({ ...blogAnalyticsQueryOptions(id, range), placeholderData: keepPreviousData });
}
