import type { Blog } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { useBlogWrite } from './blog-write';
import { toBlogFormData, type BlogFormValues } from './blog-form-data';

export function updateBlog({ id, values }: { id: string; values: BlogFormValues }) {
  return apiFetch<Blog>(`/api/blogs/${encodeURIComponent(id)}`, { method: 'PATCH', body: toBlogFormData(values) });
}

export const useUpdateBlog = () => useBlogWrite(updateBlog);
