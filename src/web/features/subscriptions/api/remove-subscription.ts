import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { subscriptionQueryKeys } from './subscription-query-keys';
import type { UnsubscribeResult } from '../../../../shared/subscription-schema';

export function removeSubscription(id: string) {
  return apiFetch<UnsubscribeResult>(`/api/settings/subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** From Settings: the list is fetched again, so the removed one goes. */
export function useRemoveSubscription(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionQueryKeys.mineOf(userId) }),
  });
}
