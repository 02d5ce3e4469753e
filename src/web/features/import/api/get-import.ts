import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ImportJob } from '../../../../shared/import-schema';
import { apiFetch } from '../../../lib/api-client';

/** How often the page asks how far a running import has come. */
const POLL_MS = 500;

export function getImport(id: string, signal?: AbortSignal) {
  return apiFetch<ImportJob>(`/api/imports/${encodeURIComponent(id)}`, { signal });
}

export function importQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['imports', id],
    queryFn: ({ signal }) => getImport(id, signal),
    retry: false,
    refetchInterval: (query) => (query.state.data?.state === 'running' || query.state.data === undefined ? POLL_MS : false),
  });
}

/** The import started from this page, polled until it ends. */
export function useImport(id: string | null) {
  return useQuery({ ...importQueryOptions(id ?? ''), enabled: id !== null });
}
