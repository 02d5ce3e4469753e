import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BlogPage } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

/** One page of the signed-in viewer's drafts, the last changed first. */
export function getDrafts(page: number, signal?: AbortSignal) {
  return apiFetch<BlogPage>(`/api/drafts?page=${page}`, { signal });
}

export function getDraftsQueryOptions(page: number) {
  return queryOptions({ queryKey: blogQueryKeys.draftsPage(page), queryFn: ({ signal }) => getDrafts(page, signal) });
}

/** Read in the browser only, once the session is known: drafts are never in the server's HTML. */
export function useDrafts(page: number) {
  return useQuery(getDraftsQueryOptions(page));
}
