import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewState } from '../../../../shared/posts-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';

/** Who submitted a draft and when (issue 59): asked only by those who may edit any blog. */
export function useReviewState(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...blogQueryKeys.detail(id), 'review'] as const,
    queryFn: ({ signal }) => apiFetch<ReviewState>(`/api/posts/${encodeURIComponent(id)}/review`, { signal }),
    enabled,
  });
}

/** 'Send back' with a note: the draft waits no more; its writer is mailed the note. */
export function useSendBack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note: string }) =>
      apiFetch<void>(`/api/blogs/${encodeURIComponent(id)}/send-back`, { method: 'POST', body: JSON.stringify({ note }) }),
    onSuccess: async (_result, { id }) => {
      await queryClient.invalidateQueries({ queryKey: blogQueryKeys.detail(id) });
      await invalidateBlogLists(queryClient);
    },
  });
}
