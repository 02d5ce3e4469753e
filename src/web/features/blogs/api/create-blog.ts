import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Blog } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';
import { toBlogFormData, type BlogFormValues } from './blog-form-data';

export function createBlog(values: BlogFormValues) {
  return apiFetch<Blog>('/api/blogs', { method: 'POST', body: toBlogFormData(values) });
}

export function useCreateBlog() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBlog,
    onSuccess: async (blog) => {
      queryClient.setQueryData(blogQueryKeys.detail(blog.id), blog);
      await invalidateBlogLists(queryClient);
    },
  });
}
