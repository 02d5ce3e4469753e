import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { randomIp, sessionCookie, uniqueEmail } from '../testing/test-users.js';
import { AUTH_ADDRESS_LIMITS } from './auth-guards.js';
import { get, linkParts, mailsTo, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';

const PASSWORD = 'correct horse battery';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The ways of writing one request that Better Auth accepts but the per-address guard once did
 * not read: a form-encoded body, JSON behind a UTF-8 byte-order mark, and a path with a dot
 * segment (sent as is, like `curl --path-as-is`). Each is sent exactly as the report wrote it.
 */
const VARIANTS = {
  form: (path: string, body: Record<string, string>) => ({
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(body).toString(),
  }),
  bom: (path: string, body: Record<string, string>) => ({
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json' },
    payload: Buffer.concat([BOM, Buffer.from(JSON.stringify(body))]),
  }),
  'dot-segment': (path: string, body: Record<string, string>) => ({
    url: `/api/auth/x/..${path}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  }),
} as const;

describe('per-address auth limits hold however the request is written', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = (variant: keyof typeof VARIANTS, path: string, body: Record<string, string>) => {
    const request = VARIANTS[variant](path, body);
    return t.app.inject({
      method: 'POST',
      url: request.url,
      headers: { ...request.headers, origin: TEST_PUBLIC_URL },
      payload: request.payload,
      remoteAddress: randomIp(),
    });
  };

  async function signUp(email: string) {
    expect((await post(t.app, '/api/auth/sign-up/email', { email, password: PASSWORD, name: 'someone' })).statusCode).toBe(200);
  }

  it('each variant reaches Better Auth like plain JSON does (so the test below tests something)', async () => {
    for (const variant of Object.keys(VARIANTS) as (keyof typeof VARIANTS)[]) {
      const email = uniqueEmail(variant);
      await signUp(email);
      const response = await send(variant, '/sign-in/email', { email, password: PASSWORD });
      expect(response.statusCode, `${variant}: ${response.body}`).toBe(200);
      expect(await sessionEmail(t.app, sessionCookie(response.headers['set-cookie']))).toBe(email);
    }
  });

  it.each(Object.keys(VARIANTS) as (keyof typeof VARIANTS)[])('sign-in (%s): an address locked out stays locked out, even with the right password', async (variant) => {
    const email = uniqueEmail('locked');
    await signUp(email);
    const { max } = AUTH_ADDRESS_LIMITS['sign-in']!.rule;
    for (let i = 0; i < max; i++) expect((await post(t.app, '/api/auth/sign-in/email', { email, password: `wrong ${i}` })).statusCode).toBe(401);
    expect((await post(t.app, '/api/auth/sign-in/email', { email, password: PASSWORD })).statusCode).toBe(429);

    const attack = await send(variant, '/sign-in/email', { email, password: PASSWORD });
    expect(attack.statusCode).toBe(429);
    expect(attack.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: AUTH_ADDRESS_LIMITS['sign-in']!.message });
    expect(Number(attack.headers['retry-after'])).toBeGreaterThan(0);
    expect(attack.headers['set-cookie']).toBeUndefined();
  });

  const MAILING = [
    ['magic-link', '/sign-in/magic-link', (email: string) => ({ email }), /sign-in link/],
    ['password-reset', '/request-password-reset', (email: string) => ({ email }), /Reset/],
    ['otp-send', '/email-otp/send-verification-otp', (email: string) => ({ email, type: 'sign-in' }), /code/],
  ] as const;

  for (const [name, path, body, subject] of MAILING) {
    it.each(Object.keys(VARIANTS) as (keyof typeof VARIANTS)[])(`${name} (%s): no more mail than the limit to one address`, async (variant) => {
      const email = uniqueEmail(name);
      await signUp(email);
      const { max } = AUTH_ADDRESS_LIMITS[name]!.rule;
      for (let i = 0; i < max; i++) {
        const allowed = await send(variant, path, body(email));
        expect(allowed.statusCode, allowed.body).toBe(200);
      }
      await waitForMail(t, email, subject, max);
      for (let i = 0; i < 5; i++) {
        const refused = await send(variant, path, body(email));
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: AUTH_ADDRESS_LIMITS[name]!.message });
      }
      expect((await mailsTo(t, email)).filter((mail) => subject.test(mail.subject))).toHaveLength(max);
    });
  }

  it.each(Object.keys(VARIANTS) as (keyof typeof VARIANTS)[])('one-time code (%s): guesses are counted per address', async (variant) => {
    const email = uniqueEmail('otp');
    const { max } = AUTH_ADDRESS_LIMITS['otp-verify']!.rule;
    for (let i = 0; i < max; i++) expect((await post(t.app, '/api/auth/sign-in/email-otp', { email, otp: '000000' })).statusCode).not.toBe(429);
    const refused = await send(variant, '/sign-in/email-otp', { email, otp: '000000' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: AUTH_ADDRESS_LIMITS['otp-verify']!.message });
  });

  it('refuses other body encodings and bodies that are not JSON objects', async () => {
    const inject = (contentType: string, payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: { origin: TEST_PUBLIC_URL, 'content-type': contentType }, payload, remoteAddress: randomIp() });
    expect((await inject('text/plain', '{"email":"a@example.com","password":"x"}')).statusCode).toBe(415);
    expect((await inject('multipart/form-data; boundary=x', '--x--')).statusCode).toBe(415);
    expect((await inject('application/json', '["a@example.com"]')).statusCode).toBe(400);
    expect((await inject('application/json', '{not json')).json()).toEqual({ error: 'BAD_REQUEST', message: 'The request body is not valid JSON.' });
  });
});

describe('sign-in links cannot sign a browser in from another site (login CSRF)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_REQUIRE_EMAIL_VERIFICATION: 'true' });
  });
  afterAll(() => t.close());

  /** A browser following a link on an attacker's page: a top-level cross-site GET. */
  const crossSite = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', referer: 'https://attacker.example/page' };

  async function verifiedAttacker() {
    const email = uniqueEmail('attacker');
    expect((await post(t.app, '/api/auth/sign-up/email', { email, password: PASSWORD, name: 'attacker' })).statusCode).toBe(200);
    const { token } = linkParts((await waitForMail(t, email, /confirm/i)).links[0]!);
    expect((await get(t.app, `/api/auth/verify-email?token=${encodeURIComponent(token)}`)).statusCode).toBe(200);
    return email;
  }

  it('GET /api/auth/magic-link/verify from another site, or with no sign of our site, sets no session and spends nothing', async () => {
    const email = await verifiedAttacker();
    expect((await post(t.app, '/api/auth/sign-in/magic-link', { email })).statusCode).toBe(200);
    const { token } = linkParts((await waitForMail(t, email, /sign-in link/)).links[0]!);
    const url = `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`;

    for (const headers of [crossSite, {}, { 'sec-fetch-site': 'same-site' }, { origin: 'https://attacker.example' }, { referer: 'https://attacker.example/' }]) {
      const attack = await t.app.inject({ method: 'GET', url, headers, remoteAddress: randomIp() });
      expect(attack.statusCode, JSON.stringify(headers)).toBe(403);
      expect(attack.headers['set-cookie']).toBeUndefined();
    }
    // Our own /auth page's call (a same-origin fetch) still signs in with the unspent link.
    const page = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'sec-fetch-site': 'same-origin', referer: `${TEST_PUBLIC_URL}/auth?view=magic_link_confirm&token=x` },
      remoteAddress: randomIp(),
    });
    expect(page.statusCode).toBe(200);
    expect(await sessionEmail(t.app, sessionCookie(page.headers['set-cookie']))).toBe(email);
  });

  it('GET /api/auth/verify-email from another site sets no session and spends nothing', async () => {
    const email = uniqueEmail('victim-of-csrf');
    expect((await post(t.app, '/api/auth/sign-up/email', { email, password: PASSWORD, name: 'x' })).statusCode).toBe(200);
    const { token } = linkParts((await waitForMail(t, email, /confirm/i)).links[0]!);
    const url = `/api/auth/verify-email?token=${encodeURIComponent(token)}`;
    const attack = await t.app.inject({ method: 'GET', url, headers: crossSite, remoteAddress: randomIp() });
    expect(attack.statusCode).toBe(403);
    expect(attack.json()).toMatchObject({ error: 'FORBIDDEN' });
    expect(attack.headers['set-cookie']).toBeUndefined();
    const user = await t.database.db.selectFrom('user').select('emailVerified').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(false);
    // The e2e fixture's way (an Origin header) and the page's way both still work.
    const page = await t.app.inject({ method: 'GET', url, headers: { origin: TEST_PUBLIC_URL }, remoteAddress: randomIp() });
    expect(page.statusCode).toBe(200);
    expect(await sessionEmail(t.app, sessionCookie(page.headers['set-cookie']))).toBe(email);
  });
});
