import type { InlineImageUploaded } from '../../../../shared/inline-image-schema';
import { apiFetch } from '../../../lib/api-client';

/** Stores an image for the inside of a blog's text; the editor inserts `![alt](url)` with the answer. */
export function uploadInlineImage(file: File): Promise<InlineImageUploaded> {
  const form = new FormData();
  form.append('image', file, file.name);
  return apiFetch<InlineImageUploaded>('/api/blog-images', { method: 'POST', body: form });
}
