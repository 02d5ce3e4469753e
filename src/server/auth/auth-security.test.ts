import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/constants.js';
import { loadConfig } from '../config.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { randomIp, sessionCookie, signUpUser, uniqueEmail } from '../testing/test-users.js';
import { AUTH_ADDRESS_LIMITS } from './auth-guards.js';
import { AUTH_IP_RATE_LIMITS, configuredSocialProviders } from './auth.js';
import { storedRateLimitKey } from '../rate-limit/rate-limit.js';
import { call, codeOf, get, linkParts, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';

const PASSWORD = 'correct horse battery';

function cookieNamed(setCookie: string | string[] | undefined, name: RegExp): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = list.find((cookie) => name.test(cookie.split('=')[0]!));
  if (!found) throw new Error(`no cookie ${name} in ${JSON.stringify(list)}`);
  return found;
}

const tokenValue = (cookie: string) => cookie.split(';')[0]!.split('=').slice(1).join('=');

/** Sessions, cookies, passwords, cross-site requests and rate limits (e-mail verification off). */
describe('account security', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signIn = (email: string, password = PASSWORD, options = {}) => post(t.app, '/api/auth/sign-in/email', { email, password }, options);

  describe('passwords', () => {
    it(`are ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`, async () => {
      const attempt = (password: string) =>
        post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password, name: 'someone' });
      const tooShort = await attempt('x'.repeat(MIN_PASSWORD_LENGTH - 1));
      expect(tooShort.statusCode).toBe(400);
      expect(tooShort.json()).toMatchObject({ code: 'PASSWORD_TOO_SHORT' });
      const tooLong = await attempt('x'.repeat(MAX_PASSWORD_LENGTH + 1));
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json()).toMatchObject({ code: 'PASSWORD_TOO_LONG' });
      expect((await attempt('x'.repeat(MIN_PASSWORD_LENGTH))).statusCode).toBe(200);
      expect((await attempt('y'.repeat(MAX_PASSWORD_LENGTH))).statusCode).toBe(200);
    });

    it('are stored as salted scrypt hashes, never as they were typed', async () => {
      // Production's hashing (test apps reuse one hash per password): a new salt at each sign-up.
      const site = await createTestApp({}, { scryptEachPassword: true });
      try {
        const users = [await signUpUser(site.app), await signUpUser(site.app)];
        const rows = await site.database.db.selectFrom('account').select('password').where('userId', 'in', users.map((user) => user.id)).execute();
        expect(rows).toHaveLength(2);
        for (const row of rows) {
          expect(row.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
          expect(row.password).not.toContain(users[0]!.password);
        }
        expect(users[0]!.password).toBe(users[1]!.password);
        expect(rows[0]!.password).not.toBe(rows[1]!.password);
      } finally {
        await site.close();
      }
    });
  });

  describe('session cookies', () => {
    it('are HttpOnly and SameSite=Lax, and not Secure on plain http', async () => {
      const response = await post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password: PASSWORD, name: 'someone' });
      const cookie = cookieNamed(response.headers['set-cookie'], /session_token$/);
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).not.toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/^better-auth\.session_token=/);
    });

    it('get a new token at every sign-in, also when an old cookie is sent along', async () => {
      const user = await signUpUser(t.app);
      const first = await signIn(user.email);
      const second = await signIn(user.email, PASSWORD, { cookie: first.cookie });
      const tokens = [user.cookie, first.cookie, second.cookie].map((c) => tokenValue(cookieNamed(c.split('; '), /session_token$/)));
      expect(new Set(tokens).size).toBe(3);
      const sessions = await t.database.db.selectFrom('session').select('token').where('userId', '=', user.id).execute();
      expect(sessions).toHaveLength(3);
    });

    it('sign-out ends the session on the server: the old cookie no longer works', async () => {
      const user = await signUpUser(t.app);
      expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
      expect((await get(t.app, '/api/account', { cookie: user.cookie })).statusCode).toBe(200);
      const out = await post(t.app, '/api/auth/sign-out', {}, { cookie: user.cookie });
      expect(out.statusCode).toBe(200);
      expect(cookieNamed(out.headers['set-cookie'], /session_token$/)).toMatch(/Max-Age=0/i);
      // The browser forgets the cookie; a copy of it (stolen, or a stale tab) is now worthless too.
      expect(await sessionEmail(t.app, user.cookie)).toBeNull();
      expect((await get(t.app, '/api/account', { cookie: user.cookie })).statusCode).toBe(401);
      expect(await t.database.db.selectFrom('session').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    });
  });

  describe('changing the password', () => {
    const change = (cookie: string, body: Record<string, unknown>) => post(t.app, '/api/auth/change-password', body, { cookie });

    it('needs the right current password, and a wrong one changes nothing', async () => {
      const user = await signUpUser(t.app);
      const wrong = await change(user.cookie, { currentPassword: 'not my password', newPassword: 'a new password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD', message: 'Invalid password' });
      expect((await signIn(user.email, 'a new password')).statusCode).toBe(401);
      expect((await signIn(user.email)).statusCode).toBe(200);

      const short = await change(user.cookie, { currentPassword: PASSWORD, newPassword: 'short' });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ code: 'PASSWORD_TOO_SHORT' });
      expect((await post(t.app, '/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a new password' })).statusCode).toBe(401);
    });

    it('can end every other session, and keeps this one signed in', async () => {
      const user = await signUpUser(t.app);
      const phone = await signIn(user.email);
      const changed = await change(user.cookie, { currentPassword: PASSWORD, newPassword: 'a new password', revokeOtherSessions: true });
      expect(changed.statusCode).toBe(200);
      expect(await sessionEmail(t.app, phone.cookie)).toBeNull();
      expect(await sessionEmail(t.app, changed.cookie)).toBe(user.email);
      expect((await signIn(user.email, 'a new password')).statusCode).toBe(200);
      expect((await signIn(user.email)).statusCode).toBe(401);
    });

    it('ends the other sessions even when not asked to (issue 45: whoever knew the old password is signed out)', async () => {
      const user = await signUpUser(t.app);
      const phone = await signIn(user.email);
      const changed = await change(user.cookie, { currentPassword: PASSWORD, newPassword: 'a new password' });
      expect(changed.statusCode).toBe(200);
      expect(await sessionEmail(t.app, phone.cookie)).toBeNull();
      // The browser that changed it stays signed in, with the session the answer set.
      expect(await sessionEmail(t.app, sessionCookie(changed.headers['set-cookie']))).toBe(user.email);
    });
  });

  describe('cross-site requests', () => {
    it('refuse auth posts with a foreign or missing Origin, signed in or not', async () => {
      const user = await signUpUser(t.app);
      const foreign = await signIn(user.email, PASSWORD, { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toMatchObject({ error: 'FORBIDDEN' });
      expect(foreign.cookie).toBe('');
      expect((await signIn(user.email, PASSWORD, { origin: null })).statusCode).toBe(403);
      expect((await signIn(user.email, PASSWORD, { origin: 'null' })).statusCode).toBe(403);

      const signOut = await post(t.app, '/api/auth/sign-out', {}, { cookie: user.cookie, origin: 'https://evil.example' });
      expect(signOut.statusCode).toBe(403);
      const changePassword = await post(
        t.app,
        '/api/auth/change-password',
        { currentPassword: PASSWORD, newPassword: 'hijacked password' },
        { cookie: user.cookie, origin: null },
      );
      expect(changePassword.statusCode).toBe(403);
      expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
      expect((await signIn(user.email)).statusCode).toBe(200);
    });

    it('let a provider’s form-post callback through to Better Auth, which checks its state', async () => {
      const callback = await post(t.app, '/api/auth/callback/apple', { state: 'forged', code: 'x' }, { origin: 'https://appleid.apple.com' });
      expect(callback.statusCode).not.toBe(403);
      expect(callback.cookie).not.toContain('session_token');
    });

    it('accept a request whose Referer is one of our pages when Origin is absent', async () => {
      const user = await signUpUser(t.app);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { 'content-type': 'application/json', referer: `${TEST_PUBLIC_URL}/auth` },
        remoteAddress: randomIp(),
        payload: JSON.stringify({ email: user.email, password: PASSWORD }),
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('rate limits', () => {
    it('count sign-ups per client address, in the database', async () => {
      const ip = randomIp();
      const max = AUTH_IP_RATE_LIMITS['/sign-up/*']!.max;
      for (let i = 0; i < max; i++) {
        const ok = await post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password: PASSWORD, name: 'x' }, { ip });
        expect(ok.statusCode).toBe(200);
      }
      const blocked = await post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password: PASSWORD, name: 'x' }, { ip });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ message: expect.stringMatching(/Too many requests/) });
      expect(Number(blocked.headers['x-retry-after'])).toBeGreaterThan(0);
      const counter = await t.database.db.selectFrom('rate_limits').select(['count']).where('key', '=', storedRateLimitKey(`auth-ip:${ip}|/sign-up/email`, t.config.authSecret)).executeTakeFirst();
      // The refused request counted too (the next ones are refused in memory).
      expect(counter?.count).toBe(max + 1);
      // Another client is not affected.
      expect((await post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password: PASSWORD, name: 'x' })).statusCode).toBe(200);
    });

    it('group IPv6 clients by their /64', async () => {
      const max = AUTH_IP_RATE_LIMITS['/sign-in/*']!.max;
      for (let i = 1; i <= max; i++) {
        const attempt = await signIn(uniqueEmail('nobody'), PASSWORD, { ip: `2001:db8:aa:1::${i.toString(16)}` });
        expect(attempt.statusCode).toBe(401);
      }
      const sameNetwork = await signIn(uniqueEmail('nobody'), PASSWORD, { ip: '2001:db8:aa:1:ffff:ffff:ffff:fffe' });
      expect(sameNetwork.statusCode).toBe(429);
      const otherNetwork = await signIn(uniqueEmail('nobody'), PASSWORD, { ip: '2001:db8:aa:2::1' });
      expect(otherNetwork.statusCode).toBe(401);
      const row = await t.database.db
        .selectFrom('rate_limits')
        .select('count')
        .where('key', '=', storedRateLimitKey('auth-ip:2001:0db8:00aa:0001:0000:0000:0000:0000|/sign-in/email', t.config.authSecret))
        .executeTakeFirst();
      expect(row?.count).toBe(max + 1);
    });

    it('count sign-in attempts per e-mail address across client addresses', async () => {
      const user = await signUpUser(t.app);
      const other = await signUpUser(t.app);
      const { max } = AUTH_ADDRESS_LIMITS['sign-in']!.rule;
      for (let i = 0; i < max; i++) expect((await signIn(user.email, `wrong password ${i}`)).statusCode).toBe(401);
      const blocked = await signIn(user.email.toUpperCase());
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: AUTH_ADDRESS_LIMITS['sign-in']!.message });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signIn(other.email)).statusCode).toBe(200);
      const counter = await t.database.db.selectFrom('rate_limits').select('count').where('key', '=', storedRateLimitKey(`auth-address:sign-in:${user.email}`, t.config.authSecret)).executeTakeFirst();
      expect(counter?.count).toBe(max + 1);
    });

    it.each([
      ['sign-up', '/api/auth/sign-up/email', (email: string) => ({ email, password: PASSWORD, name: 'x' })],
      ['password-reset', '/api/auth/request-password-reset', (email: string) => ({ email })],
      ['magic-link', '/api/auth/sign-in/magic-link', (email: string) => ({ email })],
      ['otp-send', '/api/auth/email-otp/send-verification-otp', (email: string) => ({ email, type: 'sign-in' })],
      ['otp-verify', '/api/auth/sign-in/email-otp', (email: string) => ({ email, otp: '000000' })],
    ] as const)('limit %s per e-mail address', async (name, url, body) => {
      const email = uniqueEmail('limited');
      const { max } = AUTH_ADDRESS_LIMITS[name]!.rule;
      for (let i = 0; i < max; i++) {
        const allowed = await post(t.app, url, body(email));
        expect(allowed.statusCode, allowed.body).not.toBe(429);
      }
      const blocked = await post(t.app, url, body(email));
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: AUTH_ADDRESS_LIMITS[name]!.message });
    });
  });

  describe('a link or code sign-in of an unconfirmed account (e-mail verification off)', () => {
    it('a magic link removes the password and the sessions set up before the address was proven', async () => {
      const squatter = await signUpUser(t.app);
      expect(await sessionEmail(t.app, squatter.cookie)).toBe(squatter.email);

      await post(t.app, '/api/auth/sign-in/magic-link', { email: squatter.email });
      const { token } = linkParts((await waitForMail(t, squatter.email, /sign-in link/)).links[0]!);
      const owner = await get(t.app, `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
      expect(owner.statusCode).toBe(200);
      expect(owner.json()).toMatchObject({ user: { email: squatter.email, emailVerified: true } });

      expect(await sessionEmail(t.app, owner.cookie)).toBe(squatter.email);
      expect(await sessionEmail(t.app, squatter.cookie)).toBeNull();
      expect((await signIn(squatter.email)).statusCode).toBe(401);
      const logins = await t.database.db.selectFrom('account').select('providerId').where('userId', '=', squatter.id).execute();
      expect(logins).toEqual([]);
      expect((await get(t.app, '/api/account', { cookie: owner.cookie })).json()).toEqual({ email: squatter.email, hasPassword: false });
    });

    it('so does a one-time code; a password can be set again through a reset link', async () => {
      const user = await signUpUser(t.app);
      await post(t.app, '/api/auth/email-otp/send-verification-otp', { email: user.email, type: 'sign-in' });
      const code = codeOf((await waitForMail(t, user.email, /sign-in code/)).text);
      const signedIn = await post(t.app, '/api/auth/sign-in/email-otp', { email: user.email, otp: code });
      expect(signedIn.statusCode).toBe(200);
      expect((await signIn(user.email)).statusCode).toBe(401);

      await post(t.app, '/api/auth/request-password-reset', { email: user.email });
      const { token } = linkParts((await waitForMail(t, user.email, /Reset/)).links[0]!);
      expect((await post(t.app, '/api/auth/reset-password', { newPassword: 'a password again', token })).statusCode).toBe(200);
      expect((await signIn(user.email, 'a password again')).statusCode).toBe(200);
    });

    it('a confirmed account keeps its password when it signs in by link', async () => {
      const user = await signUpUser(t.app);
      await t.database.db.updateTable('user').set({ emailVerified: true }).where('id', '=', user.id).execute();
      await post(t.app, '/api/auth/sign-in/magic-link', { email: user.email });
      const { token } = linkParts((await waitForMail(t, user.email, /sign-in link/)).links[0]!);
      expect((await get(t.app, `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`)).statusCode).toBe(200);
      expect((await signIn(user.email)).statusCode).toBe(200);
      expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
    });
  });

  describe('sign-up without e-mail verification', () => {
    it('signs in at once', async () => {
      const email = uniqueEmail();
      const response = await post(t.app, '/api/auth/sign-up/email', { email, password: PASSWORD, name: 'x' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ token: expect.any(String), user: { email } });
      expect(await sessionEmail(t.app, response.cookie)).toBe(email);
    });
  });

  describe('social providers', () => {
    it('none is offered by default', async () => {
      const response = await get(t.app, '/api/auth-providers');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ providers: [], emailVerificationRequired: false });
      const social = await post(t.app, '/api/auth/sign-in/social', { provider: 'github', callbackURL: '/auth' });
      expect(social.statusCode).toBeGreaterThanOrEqual(400);
    });

    it('a provider the spec lists but Better Auth cannot serve stops start-up with a clear message', () => {
      expect(() => loadConfig({ DATA_DIR: t.dataDir, AUTH_SECRET: 'x'.repeat(32), KEYCLOAK_CLIENT_ID: 'id', KEYCLOAK_CLIENT_SECRET: 'secret' })).toThrow(
        /KEYCLOAK_CLIENT_ID is set, but sign-in with keycloak is not supported/,
      );
      const azure = loadConfig({ DATA_DIR: t.dataDir, AUTH_SECRET: 'x'.repeat(32), AZURE_CLIENT_ID: 'id', AZURE_CLIENT_SECRET: 'secret' });
      expect(configuredSocialProviders(azure)).toEqual([{ id: 'microsoft', name: 'azure' }]);
    });
  });

  it('the account endpoint needs a session', async () => {
    const response = await call(t.app, 'GET', '/api/account');
    expect(response.statusCode).toBe(401);
  });
});

/** A site served over https, with GitHub sign-in configured. */
describe('account security behind https, with a social provider', () => {
  const PUBLIC_URL = 'https://blog.example';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL, GITHUB_CLIENT_ID: 'github-id', GITHUB_CLIENT_SECRET: 'github-secret' });
  });
  afterAll(() => t.close());

  it('marks the session cookie Secure (with the __Secure- prefix)', async () => {
    const response = await post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password: PASSWORD, name: 'x' }, { origin: PUBLIC_URL });
    expect(response.statusCode).toBe(200);
    const cookie = cookieNamed(response.headers['set-cookie'], /session_token$/);
    expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  });

  it('offers the configured provider, and its sign-in returns only to our own origin', async () => {
    expect((await get(t.app, '/api/auth-providers')).json()).toEqual({ providers: [{ id: 'github', name: 'github' }], emailVerificationRequired: false });

    const start = await post(t.app, '/api/auth/sign-in/social', { provider: 'github', callbackURL: '/auth' }, { origin: PUBLIC_URL });
    expect(start.statusCode).toBe(200);
    const target = new URL((start.json() as { url: string }).url);
    expect(target.origin).toBe('https://github.com');
    expect(target.searchParams.get('client_id')).toBe('github-id');
    expect(target.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/github`);

    const away = await post(t.app, '/api/auth/sign-in/social', { provider: 'github', callbackURL: 'https://evil.example/' }, { origin: PUBLIC_URL });
    expect(away.statusCode).toBe(403);
  });
});
