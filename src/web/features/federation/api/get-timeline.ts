import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Timeline } from '../../../../shared/federation-schema';
import { apiFetch } from '../../../lib/api-client';
import { federationQueryKeys } from './federation-query-keys';

export function getTimeline(signal?: AbortSignal) {
  return apiFetch<Timeline>('/api/federation/timeline', { signal });
}

export function getTimelineQueryOptions(userId: string) {
  return queryOptions({ queryKey: federationQueryKeys.timelineOf(userId), queryFn: ({ signal }) => getTimeline(signal) });
}

export function useTimeline(userId: string) {
  return useQuery(getTimelineQueryOptions(userId));
}
