import type { QueryClient } from '@tanstack/react-query';
import type { BlogSort, SearchIn } from '../../shared/blog-schema';

/**
 * The query keys of everything that shows blogs (lists, single blogs, searches), built here so
 * that features never import each other for a key and every mutation invalidates exactly what
 * the queries use.
 */
export const blogQueryKeys = {
  all: ['blogs'] as const,
  lists: () => [...blogQueryKeys.all, 'list'] as const,
  list: (page: number, sort: BlogSort) => [...blogQueryKeys.lists(), sort, page] as const,
  /** Under `lists()`, so whatever refreshes the lists refreshes author pages too. */
  author: (authorId: string, page: number) => [...blogQueryKeys.authorPages(authorId), page] as const,
  /** Every page of one author's blogs: their profile heads each. */
  authorPages: (authorId: string) => [...blogQueryKeys.lists(), 'author', authorId] as const,
  /** A tag's blogs, and the list of tags with their counts: under `lists()` too, as every write may change them. */
  tag: (name: string, sort: BlogSort, page: number) => [...blogQueryKeys.lists(), 'tag', name, sort, page] as const,
  tags: (page: number) => [...blogQueryKeys.lists(), 'tags', page] as const,
  /** The blog a readable address names (`/blog/<slug>`): under `lists()`, as the server keeps it under the lists' tag. */
  address: (slug: string) => [...blogQueryKeys.lists(), 'address', slug] as const,
  details: () => [...blogQueryKeys.all, 'detail'] as const,
  detail: (id: string) => [...blogQueryKeys.details(), id] as const,
  /** The signed-in viewer's own drafts (`/drafts`). */
  drafts: () => [...blogQueryKeys.all, 'drafts'] as const,
  draftsPage: (page: number) => [...blogQueryKeys.drafts(), page] as const,
};

export const searchQueryKeys = {
  all: ['search'] as const,
  page: (searchTerm: string, page: number, searchIn: SearchIn) => [...searchQueryKeys.all, searchIn, searchTerm, page] as const,
};

/**
 * After a write that changes what lists and searches show (create, edit, delete, vote, a draft
 * saved or published): they are ordered by rating and carry counts, so every one of them is
 * refetched when next shown.
 */
export async function invalidateBlogLists(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: blogQueryKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: blogQueryKeys.drafts() }),
    queryClient.invalidateQueries({ queryKey: searchQueryKeys.all }),
  ]);
}
