import { expect } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { App } from '../app.js';
import { multipart } from './multipart.js';
import { TEST_PUBLIC_URL } from './test-app.js';
import type { TestUser } from './test-users.js';

/** Creates a blog through the API as `user`, the way the browser's form sends it (multipart, from the site's origin). */
export async function postBlog(app: App, user: TestUser, fields: { title: string; blog: string; tags?: string }, image?: Buffer): Promise<Blog> {
  const form = await multipart(fields, image && { data: image, filename: 'cover.png', type: 'image/png' });
  const response = await app.inject({
    method: 'POST',
    url: '/api/blogs',
    headers: { cookie: user.cookie, origin: TEST_PUBLIC_URL, ...form.headers },
    payload: form.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Blog>();
}
