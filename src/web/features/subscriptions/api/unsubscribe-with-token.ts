import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { unsubscribeResultSchema } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { invalidateSubscriptionLists } from './subscription-query-keys';

export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

/** With the token of a subscription e-mail's unsubscribe link: no session needed. */
export function unsubscribeWithToken(token: string) {
  return apiFetch<UnsubscribeResult>('/api/subscriptions/unsubscribe', { method: 'POST', body: JSON.stringify({ token }) });
}

export function useUnsubscribeWithToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsubscribeWithToken,
    onSuccess: () => invalidateSubscriptionLists(queryClient),
  });
}
