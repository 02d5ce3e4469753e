import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Blog } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';

/** Takes the cover image (the spec's Post Image) off a blog; its files are deleted. */
export function removeBlogImage(id: string) {
  return apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}/image`, { method: 'DELETE' });
}

export function useRemoveBlogImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeBlogImage,
    onSuccess: async (blog) => {
      queryClient.setQueryData(blogQueryKeys.detail(blog.id), blog);
      await invalidateBlogLists(queryClient);
    },
  });
}
