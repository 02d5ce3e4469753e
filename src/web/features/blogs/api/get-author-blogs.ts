import { queryOptions } from '@tanstack/react-query';
import type { AuthorPage } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

/** One page of an author's blogs (5), newest first, with the author's e-mail; 404 for no such author. */
export function getAuthorBlogs(authorId: string, page: number, signal?: AbortSignal) {
  return apiFetch<AuthorPage>(`/api/authors/${encodeURIComponent(authorId)}/blogs?page=${page}`, { signal });
}

export function getAuthorBlogsQueryOptions(authorId: string, page: number) {
  return queryOptions({ queryKey: blogQueryKeys.author(authorId, page), queryFn: ({ signal }) => getAuthorBlogs(authorId, page, signal) });
}
