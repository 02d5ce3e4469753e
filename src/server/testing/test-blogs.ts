import { expect } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { App } from '../app.js';
import { TEST_PUBLIC_URL } from './test-app.js';
import type { TestUser } from './test-users.js';

/** Creates a blog through the API as `user`, the way the browser's form sends it (multipart, from the site's origin). */
export async function postBlog(app: App, user: TestUser, fields: { title: string; blog: string }, image?: Buffer): Promise<Blog> {
  const form = new FormData();
  form.append('title', fields.title);
  form.append('blog', fields.blog);
  if (image) form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'cover.png');
  const encoded = new Response(form);
  const response = await app.inject({
    method: 'POST',
    url: '/api/blogs',
    headers: { cookie: user.cookie, origin: TEST_PUBLIC_URL, 'content-type': encoded.headers.get('content-type')! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Blog>();
}
