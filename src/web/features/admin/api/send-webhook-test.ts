import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '../../../../shared/webhook-schema';
import { apiFetch } from '../../../lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** Queues a test delivery; its outcome shows in the webhook's deliveries. */
export function sendWebhookTest(id: string) {
  return apiFetch<WebhookDelivery>(`/api/admin/webhooks/${encodeURIComponent(id)}/test`, { method: 'POST' });
}

export function useSendWebhookTest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: sendWebhookTest, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }) });
}
