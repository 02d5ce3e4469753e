import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Blog } from '../../../../shared/blog-schema';
import type { PostAuthors, PostsPage, PostsQuery } from '../../../../shared/posts-schema';
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

/** Every writer who has a blog, for the 'Author' filter (editors and above: `enabled` once the list says so). */
export function usePostAuthors(enabled: boolean) {
  return useQuery({
    queryKey: [...blogQueryKeys.lists(), 'posts', 'authors'] as const,
    queryFn: ({ signal }) => apiFetch<PostAuthors>('/api/posts/authors', { signal }),
    enabled,
  });
}

/**
 * Publish or unpublish a row: its status alone (`POST /api/blogs/:id/publish`, `/unpublish`), by
 * the rule and with the one visibility event of an edit's status; the server decides what the role may.
 */
export function useSetPostStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'published' | 'draft' }) =>
      apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}/${status === 'published' ? 'publish' : 'unpublish'}`, { method: 'POST' }),
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
