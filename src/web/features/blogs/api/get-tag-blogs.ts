import { queryOptions } from '@tanstack/react-query';
import type { BlogPage, BlogSort } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

/** One page (5 blogs) of the public blogs carrying a tag, in one of the home list's orders. */
export function getTagBlogs(tag: string, page: number, sort: BlogSort, signal?: AbortSignal) {
  return apiFetch<BlogPage>(`/api/blogs?${new URLSearchParams({ tag, page: String(page), sort })}`, { signal });
}

export function getTagBlogsQueryOptions(tag: string, page: number, sort: BlogSort) {
  return queryOptions({ queryKey: blogQueryKeys.tag(tag, sort, page), queryFn: ({ signal }) => getTagBlogs(tag, page, sort, signal) });
}
