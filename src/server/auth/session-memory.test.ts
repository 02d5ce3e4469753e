import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { authHeaders, randomIp, sessionCookie, signUpUser, type TestUser } from '../testing/test-users.js';
import { createAuth } from './auth.js';
import { createSessionMemory, createSessions } from './session.js';

// The app's own session memory is on (SESSION_CACHE_SECONDS defaults to 30): each test first
// reads the session through the app, so it is remembered, then ends it and reads again at once.
describe('sessions remembered in memory', () => {
  let t: TestApp;
  const account = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/account', headers: { cookie } });
  const signIn = async (user: TestUser, password = user.password) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: authHeaders, remoteAddress: randomIp(), payload: { email: user.email, password } });
    expect(response.statusCode).toBe(200);
    return sessionCookie(response.headers['set-cookie']);
  };
  const tokenOf = (cookie: string) => decodeURIComponent(/session_token=([^;]+)/.exec(cookie)![1]!).split('.')[0]!;
  /**
   * After a write straight into the database (not through this app): PGlite hears the notice when
   * the statement returns, Postgres a few milliseconds after it commits.
   */
  const endsWithinASecond = async (cookie: string) => {
    const endedAt = Date.now();
    let status = (await account(cookie)).statusCode;
    while (status === 200 && Date.now() - endedAt < 2_000) status = (await account(cookie)).statusCode;
    expect(status).toBe(401);
    expect(Date.now() - endedAt).toBeLessThan(1_000);
  };
  /** Signed in, and remembered by the app: a second read finds the session in memory. */
  const rememberedUser = async () => {
    const user = await signUpUser(t.app);
    expect((await account(user.cookie)).statusCode).toBe(200);
    expect((await account(user.cookie)).statusCode).toBe(200);
    return user;
  };

  /** The same user signed in a second time (`phone`), both sessions remembered. */
  const rememberedOnTwoDevices = async () => {
    const user = await rememberedUser();
    const phone = await signIn(user);
    expect((await account(phone)).statusCode).toBe(200);
    return { user, phone };
  };
  /** A JSON request from the site's own page, signed in as `user`. */
  const sendJson = (user: TestUser, method: 'POST' | 'DELETE', url: string, payload: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie, 'content-type': 'application/json' }, payload });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('remembers a session it read, and keeps nothing read while a session ended', async () => {
    const auth = createAuth({ config: t.config, db: t.database.db, mailer: { send: async () => {} } as never, log: t.app.log });
    const memory = createSessionMemory({ ttlMs: 60_000 });
    memory.trust(true);
    const sessions = createSessions(auth, t.database.db, memory);
    const user = await signUpUser(t.app);
    const request = () => ({ headers: { cookie: user.cookie } }) as FastifyRequest;
    expect(await sessions.optionalUser(request())).toEqual({ id: user.id, email: user.email, role: expect.any(String) });
    // Nothing tells this memory about the row's change (no listener here): the answer comes from memory.
    await t.database.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('token', '=', tokenOf(user.cookie)).execute();
    expect(await sessions.optionalUser(request())).toEqual({ id: user.id, email: user.email, role: expect.any(String) });
    const { session } = await sessions.requireSession(request());
    memory.ended(session.id);
    expect(await sessions.optionalUser(request())).toBeNull();

    // A read that started before a session ended is not kept.
    const other = await signUpUser(t.app);
    const startedAt = memory.generation;
    memory.ended('some other session');
    memory.set(tokenOf(other.cookie), startedAt, { info: { user: { id: other.id, email: other.email, role: 'author' }, session: { id: 'x', createdAt: new Date() } }, expiresAt: Date.now() + 60_000 });
    expect(memory.get(tokenOf(other.cookie))).toBeUndefined();
    // Nor anything while notices may be missed.
    memory.trust(false);
    memory.set(tokenOf(other.cookie), memory.generation, { info: { user: { id: other.id, email: other.email, role: 'author' }, session: { id: 'x', createdAt: new Date() } }, expiresAt: Date.now() + 60_000 });
    expect(memory.get(tokenOf(other.cookie))).toBeUndefined();
  });

  it('ends a remembered session at once on sign-out', async () => {
    const user = await rememberedUser();
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, payload: {} });
    expect(out.statusCode).toBe(200);
    expect((await account(user.cookie)).statusCode).toBe(401);
  });

  it('ends a remembered session at once when it is revoked, and when its row is deleted in the database', async () => {
    const { user, phone } = await rememberedOnTwoDevices();
    const revoke = await sendJson(user, 'POST', '/api/auth/revoke-session', { token: tokenOf(phone) });
    expect(revoke.statusCode).toBe(200);
    expect((await account(phone)).statusCode).toBe(401);
    expect((await account(user.cookie)).statusCode).toBe(200);
    await t.database.db.deleteFrom('session').where('userId', '=', user.id).execute();
    await endsWithinASecond(user.cookie);
  });

  it('ends the other remembered sessions at once when the password changes with revokeOtherSessions', async () => {
    const { user, phone } = await rememberedOnTwoDevices();
    const changed = await sendJson(user, 'POST', '/api/auth/change-password', { currentPassword: user.password, newPassword: 'a new password', revokeOtherSessions: true });
    expect(changed.statusCode).toBe(200);
    expect((await account(phone)).statusCode).toBe(401);
    expect((await account(sessionCookie(changed.headers['set-cookie']))).statusCode).toBe(200);
  });

  it('ends a remembered session when its account is suspended in the database, even before its sessions are deleted', async () => {
    const user = await rememberedUser();
    await t.database.db.updateTable('user').set({ suspended_at: new Date() }).where('id', '=', user.id).execute();
    await endsWithinASecond(user.cookie);
  });

  it('ends a remembered session at once when its account is deleted', async () => {
    const user = await rememberedUser();
    const deleted = await sendJson(user, 'DELETE', '/api/account', { password: user.password });
    expect(deleted.statusCode).toBeLessThan(300);
    expect((await account(user.cookie)).statusCode).toBe(401);
  });
});
