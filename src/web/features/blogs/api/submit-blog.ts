import type { Blog } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { useBlogWrite } from './blog-write';

/** Submits one's own draft for an editor's review (issue 44); the editors are mailed. */
export function submitBlogForReview(id: string) {
  return apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}/submit`, { method: 'POST' });
}

export const useSubmitBlogForReview = () => useBlogWrite(submitBlogForReview);
