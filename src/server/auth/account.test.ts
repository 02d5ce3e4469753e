import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FRESH_SESSION_MINUTES } from '../../shared/account-schema.js';
import { localUploadsDir } from '../storage/local-storage.js';
import { createImageStorage, newImageKey } from '../storage/storage.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { DELETE_ACCOUNT_RATE_LIMITS } from './account.routes.js';
import { call, codeOf, get, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';

describe('the account API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const deleteAccount = (user: Pick<TestUser, 'cookie'>, body: unknown, options: { origin?: string | null; ip?: string } = {}) =>
    call(t.app, 'DELETE', '/api/account', body, { cookie: user.cookie, ...options });

  /** A blog of the user's, with an image file in storage. */
  async function blogWithImage(user: TestUser, title: string) {
    const storage = createImageStorage(t.config);
    const key = newImageKey(`${title}.png`, user.id);
    await storage.put(key, Buffer.from('RIFF....WEBP'), 'image/webp');
    const blog = await t.database.db
      .insertInto('blogs')
      .values({ user_id: user.id, title, body: `${title} body`, image_key: key })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: blog.id, key, file: path.join(localUploadsDir(t.config), key) };
  }

  const vote = (user: TestUser, blogId: string, direction: 'up' | 'down') =>
    t.database.db.insertInto('votes').values({ blog_id: blogId, user_id: user.id, direction }).execute();

  const counts = (blogId: string) =>
    t.database.db.selectFrom('blogs').select(['upvotes', 'downvotes', 'rating']).where('id', '=', blogId).executeTakeFirst();

  it('GET /api/account says who is signed in and whether the account has a password', async () => {
    const user = await signUpUser(t.app);
    const response = await get(t.app, '/api/account', { cookie: user.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email: user.email, hasPassword: true });
    expect(response.headers['cache-control']).toContain('no-store');
  });

  it('deletes the user with every blog, vote, image and session in one go, and fixes the counts of other blogs', async () => {
    const doomed = await signUpUser(t.app);
    const secondSession = await post(t.app, '/api/auth/sign-in/email', { email: doomed.email, password: doomed.password });
    const neighbour = await signUpUser(t.app);
    const mine1 = await blogWithImage(doomed, 'first');
    const mine2 = await blogWithImage(doomed, 'second');
    const theirs = await blogWithImage(neighbour, 'theirs');
    await vote(doomed, theirs.id, 'up');
    await vote(neighbour, mine1.id, 'down');
    expect(await counts(theirs.id)).toEqual({ upvotes: 1, downvotes: 0, rating: 1 });
    expect(existsSync(mine1.file) && existsSync(mine2.file)).toBe(true);

    const response = await deleteAccount(doomed, { password: doomed.password });
    expect(response.statusCode).toBe(204);
    expect(response.headers['set-cookie']).toBeDefined();
    expect(String(response.headers['set-cookie'])).toMatch(/session_token=;.*Max-Age=0/i);

    const db = t.database.db;
    expect(await db.selectFrom('user').select('id').where('id', '=', doomed.id).execute()).toEqual([]);
    expect(await db.selectFrom('session').select('id').where('userId', '=', doomed.id).execute()).toEqual([]);
    expect(await db.selectFrom('account').select('id').where('userId', '=', doomed.id).execute()).toEqual([]);
    expect(await db.selectFrom('blogs').select('id').where('user_id', '=', doomed.id).execute()).toEqual([]);
    expect(await db.selectFrom('votes').select('blog_id').where('user_id', '=', doomed.id).execute()).toEqual([]);
    expect(await db.selectFrom('votes').select('blog_id').where('blog_id', '=', mine1.id).execute()).toEqual([]);
    expect(await counts(theirs.id)).toEqual({ upvotes: 0, downvotes: 0, rating: 0 });
    expect(existsSync(mine1.file)).toBe(false);
    expect(existsSync(mine2.file)).toBe(false);
    expect(existsSync(theirs.file)).toBe(true);

    expect(await sessionEmail(t.app, doomed.cookie)).toBeNull();
    expect(await sessionEmail(t.app, secondSession.cookie)).toBeNull();
    expect((await post(t.app, '/api/auth/sign-in/email', { email: doomed.email, password: doomed.password })).statusCode).toBe(401);
    expect(await sessionEmail(t.app, neighbour.cookie)).toBe(neighbour.email);
  });

  it('refuses a wrong or missing password and deletes nothing', async () => {
    const user = await signUpUser(t.app);
    const blog = await blogWithImage(user, 'kept');
    const wrong = await deleteAccount(user, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'INVALID_PASSWORD', message: 'Invalid password' });
    const missing = await deleteAccount(user, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'PASSWORD_REQUIRED' });
    expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
    expect(await counts(blog.id)).toBeDefined();
    expect(existsSync(blog.file)).toBe(true);
  });

  it('needs a session, and refuses a request from another site', async () => {
    const user = await signUpUser(t.app);
    expect((await deleteAccount({ cookie: '' }, { password: user.password })).statusCode).toBe(401);
    const crossSite = await deleteAccount(user, { password: user.password }, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect((await deleteAccount(user, { password: user.password }, { origin: null })).statusCode).toBe(403);
    expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
  });

  it('an account without a password (made by a code) is deleted from a fresh session only', async () => {
    const email = `code-${Date.now()}@example.com`;
    await post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const code = codeOf((await waitForMail(t, email, /sign-in code/)).text);
    const signedIn = await post(t.app, '/api/auth/sign-in/email-otp', { email, otp: code });
    expect((await get(t.app, '/api/account', { cookie: signedIn.cookie })).json()).toEqual({ email, hasPassword: false });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (FRESH_SESSION_MINUTES + 1) * 60_000 });
    try {
      const stale = await deleteAccount(signedIn, {});
      expect(stale.statusCode).toBe(403);
      expect(stale.json()).toMatchObject({ error: 'SESSION_NOT_FRESH' });
    } finally {
      vi.useRealTimers();
    }
    expect((await deleteAccount(signedIn, {})).statusCode).toBe(204);
    expect(await t.database.db.selectFrom('user').select('id').where('email', '=', email).execute()).toEqual([]);
  });

  it('is rate-limited per account', async () => {
    const user = await signUpUser(t.app);
    const { max } = DELETE_ACCOUNT_RATE_LIMITS.perUser;
    for (let i = 0; i < max; i++) expect((await deleteAccount(user, { password: `wrong ${i}` }, { ip: randomIp() })).statusCode).toBe(400);
    const blocked = await deleteAccount(user, { password: user.password }, { ip: randomIp() });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', message: expect.stringContaining('wait 15 minutes') });
    expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
  });

  it('Better Auth’s own delete-user endpoint is off, so every deletion goes through the cascade above', async () => {
    const user = await signUpUser(t.app);
    const response = await post(t.app, '/api/auth/delete-user', { password: user.password }, { cookie: user.cookie });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
  });
});
