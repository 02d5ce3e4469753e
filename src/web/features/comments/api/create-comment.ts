import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Comment, NewCommentInput } from '../../../../shared/comment-schema';
import { apiFetch } from '../../../lib/api-client';
import { afterCommentWrite } from './comment-writes';

export function createComment(blogId: string, input: NewCommentInput) {
  return apiFetch<Comment>(`/api/blogs/${encodeURIComponent(blogId)}/comments`, { method: 'POST', body: JSON.stringify(input) });
}

/** A comment, or with `parentId` a reply. */
export function useCreateComment(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewCommentInput) => createComment(blogId, input),
    onSuccess: () => afterCommentWrite(queryClient, blogId, { countChanged: true }),
  });
}
