import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SubscriptionList } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { subscriptionQueryKeys } from './subscription-query-keys';

export function getMySubscriptions(signal?: AbortSignal) {
  return apiFetch<SubscriptionList>('/api/settings/subscriptions', { signal });
}

export function getMySubscriptionsQueryOptions(userId: string) {
  return queryOptions({ queryKey: subscriptionQueryKeys.mineOf(userId), queryFn: ({ signal }) => getMySubscriptions(signal) });
}

export function useMySubscriptions(userId: string) {
  return useQuery(getMySubscriptionsQueryOptions(userId));
}
