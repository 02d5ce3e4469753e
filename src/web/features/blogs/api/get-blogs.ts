import { queryOptions } from '@tanstack/react-query';
import type { BlogPage } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

/** One page of the home list (5 blogs), best rated first. */
export function getBlogs(page: number, signal?: AbortSignal) {
  return apiFetch<BlogPage>(`/api/blogs?page=${page}`, { signal });
}

export function getBlogsQueryOptions(page: number) {
  return queryOptions({
    queryKey: blogQueryKeys.list(page),
    queryFn: ({ signal }) => getBlogs(page, signal),
  });
}

