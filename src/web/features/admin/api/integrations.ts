import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedIntegration, IntegrationList, NewIntegration } from '../../../../shared/integration-schema';
import { apiFetch } from '../../../lib/api-client';
import { auditLogKey } from './get-audit-log';

/** /admin's integrations of Ghost's APIs (issue 60): the list, adding one, new keys, deleting. */
export function integrationsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'integrations'], queryFn: ({ signal }) => apiFetch<IntegrationList>('/api/admin/integrations', { signal }), retry: false });
}

export const useIntegrations = () => useQuery(integrationsQueryOptions());

function useIntegrationChange<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: auditLogKey });
    },
  });
}

export const useCreateIntegration = () => useIntegrationChange((input: NewIntegration) => apiFetch<CreatedIntegration>('/api/admin/integrations', { method: 'POST', body: JSON.stringify(input) }));
export const useRegenerateIntegration = () => useIntegrationChange((id: string) => apiFetch<CreatedIntegration>(`/api/admin/integrations/${encodeURIComponent(id)}/regenerate`, { method: 'POST' }));
export const useDeleteIntegration = () => useIntegrationChange((id: string) => apiFetch<void>(`/api/admin/integrations/${encodeURIComponent(id)}`, { method: 'DELETE' }));
