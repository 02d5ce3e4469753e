import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubscribeResult } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { invalidateSubscriptionLists } from './subscription-query-keys';

/** With the token of the confirmation e-mail's link: no session needed. */
export function confirmSubscription(token: string) {
  return apiFetch<SubscribeResult>('/api/subscriptions/confirm', { method: 'POST', body: JSON.stringify({ token }) });
}

/** A confirmed subscription shows in the reader's Settings list and in the author's count. */
export function useConfirmSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmSubscription,
    onSuccess: () => invalidateSubscriptionLists(queryClient),
  });
}
