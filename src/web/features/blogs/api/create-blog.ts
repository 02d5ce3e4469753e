import type { Blog } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { useBlogWrite } from './blog-write';
import { toBlogFormData, type BlogFormValues } from './blog-form-data';

export function createBlog(values: BlogFormValues) {
  return apiFetch<Blog>('/api/blogs', { method: 'POST', body: toBlogFormData(values) });
}

export const useCreateBlog = () => useBlogWrite(createBlog);
