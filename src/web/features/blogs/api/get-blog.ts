import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Blog } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

export function getBlog(id: string, signal?: AbortSignal) {
  return apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}`, { signal });
}

export function getBlogQueryOptions(id: string) {
  return queryOptions({ queryKey: blogQueryKeys.detail(id), queryFn: ({ signal }) => getBlog(id, signal) });
}

export function useBlog(id: string) {
  return useQuery(getBlogQueryOptions(id));
}
