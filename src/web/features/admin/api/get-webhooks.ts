import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookList } from '../../../../shared/webhook-schema';
import { apiFetch } from '../../../lib/api-client';

export function getWebhooks(signal?: AbortSignal) {
  return apiFetch<WebhookList>('/api/admin/webhooks', { signal });
}

export function webhooksQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'webhooks'], queryFn: ({ signal }) => getWebhooks(signal), retry: false });
}

/** The webhooks with their recent deliveries; while one is still pending, looked at again every 2 s. */
export function useWebhooks() {
  return useQuery({
    ...webhooksQueryOptions(),
    refetchInterval: (query) => (query.state.data?.items.some((webhook) => webhook.deliveries.some((delivery) => delivery.status === 'pending')) ? 2000 : false),
  });
}
