import { queryOptions } from '@tanstack/react-query';
import type { SearchIn, SearchPage } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { searchQueryKeys } from '../../../lib/blog-query-keys';

/**
 * One page (5 blogs) of the blogs whose title has any of the term's words, best matches first;
 * with `searchIn` 'all', of the blogs whose title or text matches the term, each with a snippet.
 */
export function searchBlogs(searchTerm: string, page: number, searchIn: SearchIn, signal?: AbortSignal) {
  const query = new URLSearchParams({ searchTerm, page: String(page) });
  if (searchIn === 'all') query.set('in', 'all');
  return apiFetch<SearchPage>(`/api/search?${query}`, { signal });
}

export function searchBlogsQueryOptions(searchTerm: string, page: number, searchIn: SearchIn = 'title') {
  return queryOptions({ queryKey: searchQueryKeys.page(searchTerm, page, searchIn), queryFn: ({ signal }) => searchBlogs(searchTerm, page, searchIn, signal) });
}
