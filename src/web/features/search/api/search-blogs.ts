import { queryOptions } from '@tanstack/react-query';
import type { SearchPage } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { searchQueryKeys } from '../../../lib/blog-query-keys';

/** One page (5 blogs) of the blogs whose title has any of the term's words, best matches first. */
export function searchBlogs(searchTerm: string, page: number, signal?: AbortSignal) {
  const query = new URLSearchParams({ searchTerm, page: String(page) });
  return apiFetch<SearchPage>(`/api/search?${query}`, { signal });
}

export function searchBlogsQueryOptions(searchTerm: string, page: number) {
  return queryOptions({
    queryKey: searchQueryKeys.page(searchTerm, page),
    queryFn: ({ signal }) => searchBlogs(searchTerm, page, signal),
  });
}

