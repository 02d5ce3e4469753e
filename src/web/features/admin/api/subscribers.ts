import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SubscribersImportResult, SubscribersPage } from '../../../../shared/subscribers-admin-schema';
import { apiFetch } from '../../../lib/api-client';

export const subscribersQueryKeys = {
  all: ['admin', 'subscribers'] as const,
  list: (search: string, page: number) => [...subscribersQueryKeys.all, 'list', search, page] as const,
};

const searchParams = (search: string, page?: number) => new URLSearchParams({ ...(page ? { page: String(page) } : {}), ...(search ? { search } : {}) });

export function subscribersQueryOptions(search: string, page: number) {
  return queryOptions({
    queryKey: subscribersQueryKeys.list(search, page),
    queryFn: ({ signal }) => apiFetch<SubscribersPage>(`/api/admin/subscribers?${searchParams(search, page)}`, { signal }),
    retry: false,
  });
}

export function useSubscribers(search: string, page: number) {
  return useQuery(subscribersQueryOptions(search, page));
}

/** 'Export CSV': a plain link, so the browser downloads the file (the session cookie goes with it). */
export function subscribersCsvHref(search: string): string {
  const query = searchParams(search).toString();
  return `/api/admin/subscribers.csv${query ? `?${query}` : ''}`;
}

function useSubscribersMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: subscribersQueryKeys.all }) });
}

export const useRemoveSubscriber = () => useSubscribersMutation((id: string) => apiFetch(`/api/admin/subscribers/${encodeURIComponent(id)}`, { method: 'DELETE' }));

export const useImportSubscribers = () =>
  useSubscribersMutation(({ file, optedIn }: { file: File; optedIn: boolean }) => {
    const form = new FormData();
    if (optedIn) form.append('optedIn', 'true');
    form.append('file', file);
    return apiFetch<SubscribersImportResult>('/api/admin/subscribers/import', { method: 'POST', body: form });
  });
