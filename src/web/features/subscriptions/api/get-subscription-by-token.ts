import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { SubscriptionByToken } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { subscriptionQueryKeys } from './subscription-query-keys';

/** Only reads: opening a link (as a mail scanner does) changes nothing. */
export function getSubscriptionByToken(token: string, signal?: AbortSignal) {
  return apiFetch<SubscriptionByToken>(`/api/subscriptions/by-token?${new URLSearchParams({ token })}`, { signal });
}

/**
 * Read once per page: the server counts every use of a link against the same small per-client
 * limit as its button, so a tab that regains focus does not ask again.
 */
export function getSubscriptionByTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: subscriptionQueryKeys.byToken(token),
    queryFn: ({ signal }) => getSubscriptionByToken(token, signal),
    staleTime: Infinity,
  });
}

/** Filled by the route's loader, on the server and in the browser alike. */
export function useSubscriptionByToken(token: string) {
  return useSuspenseQuery(getSubscriptionByTokenQueryOptions(token));
}
