import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { afterCommentWrite } from './comment-writes';

export function deleteComment(id: string) {
  return apiFetch<void>(`/api/comments/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Its replies go with it. */
export function useDeleteComment(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteComment,
    onSuccess: () => afterCommentWrite(queryClient, blogId, { countChanged: true }),
  });
}
