import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Blog } from '../../../../shared/blog-schema';
import type { PostsPage, PostsQuery } from '../../../../shared/posts-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';

/** Posts (issue 59): under the lists' key, so every blog write refreshes it. */
const postsKey = (query: PostsQuery) => [...blogQueryKeys.lists(), 'posts', query] as const;

export function getPosts(query: PostsQuery, signal?: AbortSignal) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  return apiFetch<PostsPage>(`/api/posts?${params.toString()}`, { signal });
}

/** Read in the browser only, once the session is known. */
export function usePosts(query: PostsQuery) {
  return useQuery({ queryKey: postsKey(query), queryFn: ({ signal }) => getPosts(query, signal), placeholderData: keepPreviousData });
}

/**
 * Publish or unpublish a row: the blog's own write (`PATCH /api/blogs/:id`, the one visibility
 * event) with its text as it is; the server decides what the role may.
 */
export function useSetPostStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: 'published' | 'draft' }) => {
      const blog = await apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}`);
      const form = new FormData();
      form.append('title', blog.title);
      form.append('blog', blog.blog);
      form.append('status', status);
      return apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}`, { method: 'PATCH', body: form });
    },
    onSuccess: async (blog) => {
      queryClient.setQueryData(blogQueryKeys.detail(blog.id), blog);
      await invalidateBlogLists(queryClient);
    },
  });
}

/** 'Delete' of a row: the blog and its image go; every list is fetched again. */
export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/blogs/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: async (_result, id) => {
      queryClient.removeQueries({ queryKey: blogQueryKeys.detail(id) });
      await invalidateBlogLists(queryClient);
    },
  });
}
