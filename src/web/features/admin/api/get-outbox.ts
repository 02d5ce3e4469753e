import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Outbox } from '../../../../shared/outbox-schema';
import { apiFetch } from '../../../lib/api-client';

export function getOutbox(signal?: AbortSignal) {
  return apiFetch<Outbox>('/api/admin/outbox', { signal });
}

/** The newest mails of the outbox folder (no SMTP server), newest first. */
export function outboxQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'outbox'], queryFn: ({ signal }) => getOutbox(signal), retry: false });
}

export function useOutbox() {
  return useQuery(outboxQueryOptions());
}
