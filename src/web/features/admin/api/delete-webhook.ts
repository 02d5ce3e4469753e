import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { auditLogKey } from './get-audit-log';
import { webhooksQueryOptions } from './get-webhooks';

export function deleteWebhook(id: string) {
  return apiFetch<void>(`/api/admin/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: auditLogKey });
    },
  });
}
