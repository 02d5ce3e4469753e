import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubscribeInput, SubscribeResult } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { subscriptionQueryKeys } from './subscription-query-keys';
import { getSubscriberCountQueryOptions } from './get-subscriber-count';

export function subscribe(input: SubscribeInput) {
  return apiFetch<SubscribeResult>('/api/subscriptions', { method: 'POST', body: JSON.stringify(input) });
}

/**
 * A signed-in reader's own verified address is subscribed at once: their Settings list (and, on
 * their own author page, their count) changed. Anything else waits for the e-mailed link.
 */
export function useSubscribe(viewerId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: subscribe,
    onSuccess: async (result, input) => {
      if (result.status !== 'subscribed' || viewerId === null) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionQueryKeys.mineOf(viewerId) }),
        ...(input.authorId ? [queryClient.invalidateQueries({ queryKey: getSubscriberCountQueryOptions(input.authorId).queryKey })] : []),
      ]);
    },
  });
}
