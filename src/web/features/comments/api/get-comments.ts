import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { CommentList } from '../../../../shared/comment-schema';
import { apiFetch } from '../../../lib/api-client';

/** The keys of the comments' queries, used by the query and by every mutation that changes it. */
export const commentQueryKeys = {
  all: ['comments'] as const,
  forBlog: (blogId: string) => [...commentQueryKeys.all, blogId] as const,
};

export function getComments(blogId: string, signal?: AbortSignal) {
  return apiFetch<CommentList>(`/api/blogs/${encodeURIComponent(blogId)}/comments`, { signal });
}

export function getCommentsQueryOptions(blogId: string) {
  return queryOptions({ queryKey: commentQueryKeys.forBlog(blogId), queryFn: ({ signal }) => getComments(blogId, signal) });
}

/** Filled by the route's loader, on the server and in the browser alike. */
export function useComments(blogId: string) {
  return useSuspenseQuery(getCommentsQueryOptions(blogId));
}
