import { queryOptions } from '@tanstack/react-query';
import type { BlogAddress } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

/** The blog a readable address (`/blog/<slug>`) names, and its current slug. */
export function getBlogAddress(slug: string, signal?: AbortSignal) {
  return apiFetch<BlogAddress>(`/api/blogs/by-slug/${encodeURIComponent(slug)}`, { signal });
}

export function getBlogAddressQueryOptions(slug: string) {
  return queryOptions({ queryKey: blogQueryKeys.address(slug), queryFn: ({ signal }) => getBlogAddress(slug, signal) });
}
