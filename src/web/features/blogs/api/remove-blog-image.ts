import type { Blog } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { useBlogWrite } from './blog-write';

/** Takes the cover image (the spec's Post Image) off a blog; its files are deleted. */
export function removeBlogImage(id: string) {
  return apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}/image`, { method: 'DELETE' });
}

export const useRemoveBlogImage = () => useBlogWrite(removeBlogImage);
