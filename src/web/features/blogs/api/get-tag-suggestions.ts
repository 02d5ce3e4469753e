import { queryOptions } from '@tanstack/react-query';
import type { TagSuggestions } from '../../../../shared/tag-schema';
import { apiFetch } from '../../../lib/api-client';

/** The most used tags starting with `prefix`, for the Tags field of the blog form. */
export function getTagSuggestions(prefix: string, signal?: AbortSignal) {
  return apiFetch<TagSuggestions>(`/api/tag-suggestions?${new URLSearchParams({ prefix })}`, { signal });
}

export function tagSuggestionsQueryOptions(prefix: string) {
  return queryOptions({
    queryKey: ['tag-suggestions', prefix] as const,
    queryFn: ({ signal }) => getTagSuggestions(prefix, signal),
    // Tags change slowly; a writer going back and forth over a prefix asks once.
    staleTime: 60_000,
  });
}
