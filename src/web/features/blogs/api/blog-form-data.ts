/** What the create and edit forms send: the text fields and an optional new image. */
export interface BlogFormValues {
  title: string;
  blog: string;
  image: File | null;
}

/** The multipart body `POST /api/blogs` and `PATCH /api/blogs/:id` read. */
export function toBlogFormData(values: BlogFormValues): FormData {
  const form = new FormData();
  form.append('title', values.title);
  form.append('blog', values.blog);
  if (values.image) form.append('image', values.image, values.image.name);
  return form;
}
