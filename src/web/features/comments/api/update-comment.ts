import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Comment } from '../../../../shared/comment-schema';
import { apiFetch } from '../../../lib/api-client';
import { afterCommentWrite } from './comment-writes';

export function updateComment({ id, body }: { id: string; body: string }) {
  return apiFetch<Comment>(`/api/comments/${encodeURIComponent(id)}`, { method: 'PATCH', body: JSON.stringify({ body }) });
}

export function useUpdateComment(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateComment,
    onSuccess: () => afterCommentWrite(queryClient, blogId, { countChanged: false }),
  });
}
