import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { signUpUser } from '../testing/test-users.js';
import { createAuth } from './auth.js';
import { createSessions, type Sessions } from './session.js';

describe('session reading', () => {
  let t: TestApp;
  let auth: ReturnType<typeof createAuth>;
  let sessions: Sessions;
  const request = (cookie?: string) => ({ headers: cookie ? { cookie } : {} }) as FastifyRequest;
  const tokenOf = (cookie: string) => decodeURIComponent(/session_token=([^;]+)/.exec(cookie)![1]!).split('.')[0]!;

  beforeAll(async () => {
    t = await createTestApp();
    // A second Better Auth on the same database and secret: the app's cookies are valid for it.
    auth = createAuth({ config: t.config, db: t.database.db, mailer: { send: async () => {} } as never, log: t.app.log });
    sessions = createSessions(auth, t.database.db);
  });
  afterAll(() => t.close());

  it('reads a fresh session with one query of its own, without Better Auth', async () => {
    const user = await signUpUser(t.app);
    const getSession = vi.spyOn(auth.api, 'getSession');
    expect(await sessions.optionalUser(request(user.cookie))).toEqual({ id: user.id, email: user.email, role: expect.any(String) });
    expect((await sessions.requireSession(request(user.cookie))).session.createdAt).toBeInstanceOf(Date);
    expect(getSession).not.toHaveBeenCalled();
    getSession.mockRestore();
  });

  it('answers null without a cookie, with a forged signature and with an unknown token', async () => {
    const user = await signUpUser(t.app);
    expect(await sessions.optionalUser(request())).toBeNull();
    expect(await sessions.optionalUser(request('other=1'))).toBeNull();
    const token = tokenOf(user.cookie);
    const forged = `better-auth.session_token=${encodeURIComponent(`${token}.${Buffer.alloc(32, 7).toString('base64')}`)}`;
    expect(await sessions.optionalUser(request(forged))).toBeNull();
    const unsigned = `better-auth.session_token=${token}`;
    expect(await sessions.optionalUser(request(unsigned))).toBeNull();
    await expect(sessions.requireUser(request(forged))).rejects.toMatchObject({ statusCode: 401 });
  });

  it('ends at once when the session is signed out or deleted', async () => {
    const user = await signUpUser(t.app);
    expect(await sessions.optionalUser(request(user.cookie))).not.toBeNull();
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, payload: {} });
    expect(out.statusCode).toBe(200);
    expect(await sessions.optionalUser(request(user.cookie))).toBeNull();

    const other = await signUpUser(t.app);
    expect(await sessions.optionalUser(request(other.cookie))).not.toBeNull();
    await t.database.db.deleteFrom('session').where('userId', '=', other.id).execute();
    expect(await sessions.optionalUser(request(other.cookie))).toBeNull();
  });

  it('leaves a session due for refresh to Better Auth, which extends it', async () => {
    const user = await signUpUser(t.app);
    const token = tokenOf(user.cookie);
    const soon = new Date(Date.now() + 60 * 60_000);
    await t.database.db.updateTable('session').set({ expiresAt: soon }).where('token', '=', token).execute();
    const getSession = vi.spyOn(auth.api, 'getSession');
    expect(await sessions.optionalUser(request(user.cookie))).toEqual({ id: user.id, email: user.email, role: expect.any(String) });
    expect(getSession).toHaveBeenCalledTimes(1);
    getSession.mockRestore();
    const row = await t.database.db.selectFrom('session').select('expiresAt').where('token', '=', token).executeTakeFirstOrThrow();
    expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 60 * 60_000);
  });

  it('leaves an expired session to Better Auth, which ends and deletes it', async () => {
    const user = await signUpUser(t.app);
    const token = tokenOf(user.cookie);
    await t.database.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('token', '=', token).execute();
    expect(await sessions.optionalUser(request(user.cookie))).toBeNull();
    expect(await t.database.db.selectFrom('session').select('id').where('token', '=', token).executeTakeFirst()).toBeUndefined();
  });
});
