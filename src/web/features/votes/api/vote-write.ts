import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type { Blog, VoteResult } from '../../../../shared/blog-schema';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';

/**
 * A vote cast or taken back. The answer carries the blog's new counts and the user's vote: they go
 * straight into the blog's cached query, so its page updates in place. Lists and searches are
 * ordered by rating, so they are refetched when next shown.
 */
export function useVoteWrite<Variables>(write: (variables: Variables) => Promise<VoteResult>, onError?: UseMutationOptions<VoteResult, Error, Variables>['onError']) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (result) => {
      queryClient.setQueryData(blogQueryKeys.detail(result.blogId), (blog: Blog | undefined) =>
        blog && { ...blog, upvotes: result.upvotes, downvotes: result.downvotes, rating: result.rating, myVote: result.myVote },
      );
      await invalidateBlogLists(queryClient);
    },
    onError,
  });
}
