import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Blog } from '../../../../shared/blog-schema';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';

/** A write that answers the blog as it now is: that becomes the cached blog, and every list is fetched again. */
export function useBlogWrite<Variables>(write: (variables: Variables) => Promise<Blog>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (blog) => {
      queryClient.setQueryData(blogQueryKeys.detail(blog.id), blog);
      await invalidateBlogLists(queryClient);
    },
  });
}
