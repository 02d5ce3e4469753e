import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BlogPreview } from '../../../../shared/inline-image-schema';
import { apiFetch } from '../../../lib/api-client';

export function previewBlog(blog: string, signal?: AbortSignal): Promise<BlogPreview> {
  return apiFetch<BlogPreview>('/api/blogs/preview', { method: 'POST', body: JSON.stringify({ blog }), signal });
}

/** The server's rendering of the Content as typed; the same text is not rendered twice. */
export function previewBlogQueryOptions(blog: string) {
  return queryOptions({
    queryKey: ['blog-preview', blog] as const,
    queryFn: ({ signal }) => previewBlog(blog, signal),
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  });
}

export function useBlogPreview(blog: string, enabled: boolean) {
  return useQuery({ ...previewBlogQueryOptions(blog), enabled });
}
