import type { BlogStatus } from '../../../../shared/blog-schema';

/** What the create and edit forms send: the text fields, an optional new image and status. */
export interface BlogFormValues {
  title: string;
  blog: string;
  image: File | null;
  /** Unset: a new blog has none, an edited one keeps its own (autosave sends none). */
  tags?: readonly string[];
  /** Unset: a new blog is published, an edited one keeps its status. */
  status?: BlogStatus;
  /** A time (ISO 8601) schedules the blog; '' unschedules it; unset keeps the schedule. */
  publishAt?: string;
}

/** The multipart body `POST /api/blogs` and `PATCH /api/blogs/:id` read. */
export function toBlogFormData(values: BlogFormValues): FormData {
  const form = new FormData();
  form.append('title', values.title);
  form.append('blog', values.blog);
  if (values.status) form.append('status', values.status);
  if (values.tags) form.append('tags', values.tags.join(','));
  if (values.publishAt !== undefined) form.append('publishAt', values.publishAt);
  if (values.image) form.append('image', values.image, values.image.name);
  return form;
}
