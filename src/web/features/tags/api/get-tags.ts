import { queryOptions } from '@tanstack/react-query';
import type { TagsPage } from '../../../../shared/tag-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

/** One page of the tags of public blogs, the most used first, with their numbers of blogs. */
export function getTags(page: number, signal?: AbortSignal) {
  return apiFetch<TagsPage>(`/api/tags?page=${page}`, { signal });
}

export function getTagsQueryOptions(page: number) {
  return queryOptions({ queryKey: blogQueryKeys.tags(page), queryFn: ({ signal }) => getTags(page, signal) });
}
