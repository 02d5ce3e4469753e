import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditLogPage } from '../../../../shared/audit-log-schema';
import { apiFetch } from '../../../lib/api-client';

export function getAuditLog(before: string | null, signal?: AbortSignal) {
  return apiFetch<AuditLogPage>(`/api/admin/audit-log${before ? `?before=${encodeURIComponent(before)}` : ''}`, { signal });
}

/** Newest first; each next page is older ('Load older'). */
export function auditLogQueryOptions() {
  return infiniteQueryOptions({
    queryKey: ['admin', 'audit-log'],
    queryFn: ({ pageParam, signal }) => getAuditLog(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
    retry: false,
  });
}

export function useAuditLog() {
  return useInfiniteQuery(auditLogQueryOptions());
}
