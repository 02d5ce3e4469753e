import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Blog, VoteDirection, VoteResult } from '../../../../shared/blog-schema';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';

export function castVote({ blogId, direction }: { blogId: string; direction: VoteDirection }) {
  return apiFetch<VoteResult>(`/api/blogs/${encodeURIComponent(blogId)}/vote`, {
    method: 'PUT',
    body: JSON.stringify({ direction }),
  });
}

/**
 * The answer carries the blog's new counts and the user's vote: they go straight into the
 * blog's cached query, so its page updates in place. Lists and searches are ordered by rating,
 * so they are refetched when next shown.
 */
export function useCastVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: castVote,
    onSuccess: async (result) => {
      queryClient.setQueryData(blogQueryKeys.detail(result.blogId), (blog: Blog | undefined) =>
        blog && { ...blog, upvotes: result.upvotes, downvotes: result.downvotes, rating: result.rating, myVote: result.myVote },
      );
      await invalidateBlogLists(queryClient);
    },
    onError: async (error, { blogId }) => {
      // A repeat means this page's idea of the user's vote is out of date (another tab voted).
      if (error instanceof ApiError && error.status === 409) {
        await queryClient.invalidateQueries({ queryKey: blogQueryKeys.detail(blogId) });
      }
    },
  });
}
