import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Blog, VoteResult } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';

export function removeVote({ blogId }: { blogId: string }) {
  return apiFetch<VoteResult>(`/api/blogs/${encodeURIComponent(blogId)}/vote`, { method: 'DELETE' });
}

/** Like a vote: the new counts go into the blog's cached query; lists are refetched when next shown. */
export function useRemoveVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeVote,
    onSuccess: async (result) => {
      queryClient.setQueryData(blogQueryKeys.detail(result.blogId), (blog: Blog | undefined) =>
        blog && { ...blog, upvotes: result.upvotes, downvotes: result.downvotes, rating: result.rating, myVote: result.myVote },
      );
      await invalidateBlogLists(queryClient);
    },
  });
}
