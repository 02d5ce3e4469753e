import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubscribeResult, UnsubscribeResult } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { invalidateSubscriptionLists } from './subscription-query-keys';

/** What the button of a subscription e-mail's link does: confirm the subscription, or end it. */
export type SubscriptionLinkKind = 'confirm' | 'unsubscribe';

const ACTION_PATHS: Record<SubscriptionLinkKind, string> = {
  confirm: '/api/subscriptions/confirm',
  unsubscribe: '/api/subscriptions/unsubscribe',
};

/**
 * With the token of the e-mail's link: no session needed. Either changes the reader's Settings
 * list and the author's count of subscribers.
 */
export function useSubscriptionLinkAction(kind: SubscriptionLinkKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiFetch<SubscribeResult | UnsubscribeResult>(ACTION_PATHS[kind], { method: 'POST', body: JSON.stringify({ token }) }),
    onSuccess: () => invalidateSubscriptionLists(queryClient),
  });
}
