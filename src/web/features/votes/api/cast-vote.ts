import { useQueryClient } from '@tanstack/react-query';
import type { VoteDirection, VoteResult } from '../../../../shared/blog-schema';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';
import { useVoteWrite } from './vote-write';

export function castVote({ blogId, direction }: { blogId: string; direction: VoteDirection }) {
  return apiFetch<VoteResult>(`/api/blogs/${encodeURIComponent(blogId)}/vote`, {
    method: 'PUT',
    body: JSON.stringify({ direction }),
  });
}

export function useCastVote() {
  const queryClient = useQueryClient();
  return useVoteWrite(castVote, async (error, { blogId }) => {
    // A repeat means this page's idea of the user's vote is out of date (another tab voted).
    if (error instanceof ApiError && error.status === 409) {
      await queryClient.invalidateQueries({ queryKey: blogQueryKeys.detail(blogId) });
    }
  });
}
