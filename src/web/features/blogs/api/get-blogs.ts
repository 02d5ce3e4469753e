import { queryOptions } from '@tanstack/react-query';
import type { BlogPage, BlogSort } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

/** One page of the home list (5 blogs) in one of its orders. */
export function getBlogs(page: number, sort: BlogSort, signal?: AbortSignal) {
  return apiFetch<BlogPage>(`/api/blogs?page=${page}&sort=${sort}`, { signal });
}

export function getBlogsQueryOptions(page: number, sort: BlogSort) {
  return queryOptions({ queryKey: blogQueryKeys.list(page, sort), queryFn: ({ signal }) => getBlogs(page, sort, signal) });
}
