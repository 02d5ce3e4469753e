import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { invalidateBlogLists } from '../../../lib/blog-query-keys';

export function deleteBlog(id: string) {
  return apiFetch<void>(`/api/blogs/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * The lists are refreshed at once; the deleted blog's own query is left for the caller to
 * drop after leaving its page, so the page does not refetch it and flash 'does not exist'.
 */
export function useDeleteBlog() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBlog,
    onSuccess: () => invalidateBlogLists(queryClient),
  });
}
