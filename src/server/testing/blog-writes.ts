import { expect } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { App } from '../app.js';
import { TEST_PUBLIC_URL } from './test-app.js';
import { authHeaders, randomIp, sessionCookie, type TestUser } from './test-users.js';

/**
 * The writes tests of tags and search in text make, through the API as the browser sends them;
 * `t.app` is read at each call, so a `useTestApp` handle may be passed before its app is built.
 */
export function blogWrites(t: { app: App }, moderator?: TestUser) {
  /** A multipart body as the browser's form sends it; answers the response. */
  const send = async (method: 'POST' | 'PATCH', url: string, user: TestUser, fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const encoded = new Response(form);
    return t.app.inject({
      method,
      url,
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { origin: TEST_PUBLIC_URL, 'content-type': encoded.headers.get('content-type')!, cookie: user.cookie },
      remoteAddress: randomIp(),
    });
  };
  const ok = async (response: Awaited<ReturnType<typeof send>>) => {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<Blog>();
  };
  return {
    send,
    create: async (user: TestUser, fields: { title: string; blog?: string; tags?: string; status?: 'draft' | 'published' }) =>
      ok(await send('POST', '/api/blogs', user, { blog: 'Some words.', ...fields })),
    edit: async (user: TestUser, id: string, fields: { title?: string; blog?: string; tags?: string; status?: 'draft' | 'published' }) =>
      ok(await send('PATCH', `/api/blogs/${id}`, user, { title: 'Edited', blog: 'Edited words.', ...fields })),
    async remove(user: TestUser, id: string) {
      const response = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${id}`, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, remoteAddress: randomIp() });
      expect(response.statusCode, response.body).toBe(204);
    },
    async moderate(payload: Record<string, unknown>) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/moderation/actions',
        headers: { origin: TEST_PUBLIC_URL, cookie: moderator!.cookie },
        remoteAddress: randomIp(),
        payload,
      });
      expect(response.statusCode, response.body).toBe(200);
    },
    /** A suspension ends the user's sessions: after it is lifted, they sign in again. */
    async signInAgain(user: TestUser) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: authHeaders,
        remoteAddress: randomIp(),
        payload: { email: user.email, password: user.password },
      });
      expect(response.statusCode, response.body).toBe(200);
      user.cookie = sessionCookie(response.headers['set-cookie']);
    },
    async vote(user: TestUser, id: string, direction: 'up' | 'down') {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/blogs/${id}/vote`,
        headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie },
        remoteAddress: randomIp(),
        payload: { direction },
      });
      expect(response.statusCode, response.body).toBe(200);
    },
    async deleteAccount(user: TestUser) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: '/api/account',
        headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie, 'content-type': 'application/json' },
        remoteAddress: randomIp(),
        payload: { password: user.password },
      });
      expect(response.statusCode, response.body).toBe(204);
    },
  };
}
