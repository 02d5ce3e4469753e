import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditKind, AuditLogPage } from '../../../../shared/audit-log-schema';
import { apiFetch } from '../../../lib/api-client';

export function getAuditLog(before: string | null, kind: AuditKind | null, signal?: AbortSignal) {
  const query = new URLSearchParams();
  if (before) query.set('before', before);
  if (kind) query.set('kind', kind);
  const search = query.toString();
  return apiFetch<AuditLogPage>(`/api/admin/audit-log${search ? `?${search}` : ''}`, { signal });
}

/** Every kind's pages: what a write that adds an entry invalidates. */
export const auditLogKey = ['admin', 'audit-log'] as const;

/** Newest first, of one kind or all; each next page is older ('Load older'). */
export function auditLogQueryOptions(kind: AuditKind | null = null) {
  return infiniteQueryOptions({
    queryKey: [...auditLogKey, kind ?? 'all'],
    queryFn: ({ pageParam, signal }) => getAuditLog(pageParam, kind, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
    retry: false,
  });
}

export function useAuditLog(kind: AuditKind | null = null) {
  return useInfiniteQuery(auditLogQueryOptions(kind));
}
