import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FollowingList } from '../../../../shared/federation-schema';
import { apiFetch } from '../../../lib/api-client';
import { federationQueryKeys } from './federation-query-keys';

export function getFollowing(signal?: AbortSignal) {
  return apiFetch<FollowingList>('/api/federation/following', { signal });
}

export function getFollowingQueryOptions(userId: string) {
  return queryOptions({ queryKey: federationQueryKeys.followingOf(userId), queryFn: ({ signal }) => getFollowing(signal) });
}

export function useFollowing(userId: string) {
  return useQuery(getFollowingQueryOptions(userId));
}
