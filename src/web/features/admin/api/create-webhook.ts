import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhook, NewWebhook } from '../../../../shared/webhook-schema';
import { apiFetch } from '../../../lib/api-client';
import { auditLogKey } from './get-audit-log';
import { webhooksQueryOptions } from './get-webhooks';

export function createWebhook(input: NewWebhook) {
  return apiFetch<CreatedWebhook>('/api/admin/webhooks', { method: 'POST', body: JSON.stringify(input) });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: auditLogKey });
    },
  });
}
