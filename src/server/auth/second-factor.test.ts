import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { loggerOptions } from '../http/logging.js';
import { call, codeOf, cookiesOf, get, linkParts, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';
import { useTestApp } from '../testing/test-app.js';
import { keyOfUri, totp } from '../testing/totp.js';
import { signUpUser, uniqueEmail, type TestUser } from '../testing/test-users.js';
import { SECOND_FACTOR_LOCKOUT } from './second-factor.js';

describe('the tests’ own TOTP (RFC 6238, appendix B, SHA-1)', () => {
  it('gives the RFC’s codes', () => {
    const key = Buffer.from('12345678901234567890');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [time, code] of vectors) expect(totp(key, time, { digits: 8 })).toBe(code);
  });
});

const now = () => Math.floor(Date.now() / 1000);

describe('two-factor authentication (TOTP and backup codes)', () => {
  const t = useTestApp();

  interface Enrolled extends TestUser {
    key: Buffer;
    backupCodes: string[];
  }

  /** Signs a user up and turns two-factor on with the code of the current 30 seconds. */
  async function enrolledUser(): Promise<Enrolled> {
    const user = await signUpUser(t.app);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const body = enabled.json<{ totpURI: string; backupCodes: string[]; totpQrSvg: string }>();
    expect(body.totpURI).toMatch(/^otpauth:\/\/totp\//);
    expect(body.totpQrSvg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(body.backupCodes).toHaveLength(10);
    expect(new Set(body.backupCodes).size).toBe(10);
    const key = keyOfUri(body.totpURI);
    // Not on until a code confirms it.
    expect(await twoFactorOn(user.id)).toBe(false);
    const confirmed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now()) }, { cookie: user.cookie });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await twoFactorOn(user.id)).toBe(true);
    return { ...user, cookie: confirmed.cookie || user.cookie, key, backupCodes: body.backupCodes };
  }

  const twoFactorOn = async (userId: string) =>
    Boolean((await t.database.db.selectFrom('user').select('twoFactorEnabled').where('id', '=', userId).executeTakeFirstOrThrow()).twoFactorEnabled);

  /** A password sign-in: with two-factor on, it answers with the second step and no session. */
  async function passwordStep(user: TestUser) {
    const response = await post(t.app, '/api/auth/sign-in/email', { email: user.email, password: user.password });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ twoFactorRedirect: true });
    const cookie = cookiesOf(response);
    expect(cookie).toContain('two_factor=');
    expect(cookie).not.toContain('session_token=');
    return cookie;
  }

  it('enrols with a QR code and a key, then every password sign-in asks for a code; a code counts once', async () => {
    const user = await enrolledUser();
    // A code of the next 30 seconds (accepted, one step either side): the enrolment's was this one.
    const code = totp(user.key, now() + 30);
    const pending = await passwordStep(user);
    const wrong = await post(t.app, '/api/auth/two-factor/verify-totp', { code: code === '000000' ? '111111' : '000000' }, { cookie: pending });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CODE' });
    const signedIn = await post(t.app, '/api/auth/two-factor/verify-totp', { code }, { cookie: pending });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await sessionEmail(t.app, signedIn.cookie)).toBe(user.email);

    // The same code again, within its window: refused, and no session is made.
    const again = await passwordStep(user);
    const replayed = await post(t.app, '/api/auth/two-factor/verify-totp', { code }, { cookie: again });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ code: 'CODE_ALREADY_USED', message: expect.stringMatching(/used already/) });
    expect(cookiesOf(replayed)).not.toMatch(/session_token=[^;]/);
  });

  it('turning it on ends the account’s other sessions', async () => {
    const user = await signUpUser(t.app);
    const elsewhere = (await post(t.app, '/api/auth/sign-in/email', { email: user.email, password: user.password })).cookie;
    expect(await sessionEmail(t.app, elsewhere)).toBe(user.email);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    const key = keyOfUri(enabled.json<{ totpURI: string }>().totpURI);
    const confirmed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now()) }, { cookie: user.cookie });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await sessionEmail(t.app, elsewhere)).toBeNull();
    expect(await sessionEmail(t.app, confirmed.cookie)).toBe(user.email);
  });

  it('a backup code signs in once; new ones replace the old', async () => {
    const user = await enrolledUser();
    const [first, second] = user.backupCodes;
    const signedIn = await post(t.app, '/api/auth/two-factor/verify-backup-code', { code: first }, { cookie: await passwordStep(user) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await sessionEmail(t.app, signedIn.cookie)).toBe(user.email);
    const reused = await post(t.app, '/api/auth/two-factor/verify-backup-code', { code: first }, { cookie: await passwordStep(user) });
    expect(reused.statusCode).toBe(401);

    const fresh = await post(t.app, '/api/auth/two-factor/generate-backup-codes', { password: user.password }, { cookie: signedIn.cookie });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json<{ backupCodes: string[] }>().backupCodes).toHaveLength(10);
    const old = await post(t.app, '/api/auth/two-factor/verify-backup-code', { code: second }, { cookie: await passwordStep(user) });
    expect(old.statusCode).toBe(401);
  });

  it('a magic link and an e-mailed code also ask for the second factor before any session', async () => {
    const user = await enrolledUser();
    const sessionCount = async () => (await t.database.db.selectFrom('session').select('id').where('userId', '=', user.id).execute()).length;
    let before = await sessionCount();
    await post(t.app, '/api/auth/sign-in/magic-link', { email: user.email });
    const { token } = linkParts((await waitForMail(t, user.email, /sign-in link/)).links[0]!);
    const linked = await get(t.app, `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(cookiesOf(linked)).not.toMatch(/session_token=[^;]/);
    expect(await sessionCount()).toBeLessThanOrEqual(before);
    // The next window's code: the enrolment spent this window's, or the one before if the test crossed a boundary since.
    const afterLink = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(user.key, now() + 30) }, { cookie: cookiesOf(linked) });
    expect(afterLink.statusCode, afterLink.body).toBe(200);
    expect(await sessionEmail(t.app, afterLink.cookie)).toBe(user.email);

    before = await sessionCount();
    await post(t.app, '/api/auth/email-otp/send-verification-otp', { email: user.email, type: 'sign-in' });
    const otp = codeOf((await waitForMail(t, user.email, /sign-in code/)).text);
    const coded = await post(t.app, '/api/auth/sign-in/email-otp', { email: user.email, otp });
    expect(coded.json()).toMatchObject({ twoFactorRedirect: true });
    expect(cookiesOf(coded)).not.toMatch(/session_token=[^;]/);
    expect(await sessionCount()).toBeLessThanOrEqual(before);
    const afterCode = await post(t.app, '/api/auth/two-factor/verify-backup-code', { code: user.backupCodes[3] }, { cookie: cookiesOf(coded) });
    expect(await sessionEmail(t.app, afterCode.cookie)).toBe(user.email);
  });

  it(`locks the account after ${SECOND_FACTOR_LOCKOUT.maxFailedAttempts} wrong codes, however they are sent`, async () => {
    const user = await enrolledUser();
    for (let i = 0; i < SECOND_FACTOR_LOCKOUT.maxFailedAttempts; i++) {
      const pending = await passwordStep(user);
      // Half of them form-encoded: the limit counts them the same.
      const wrong =
        i % 2 === 0
          ? await post(t.app, '/api/auth/two-factor/verify-totp', { code: '000000' }, { cookie: pending })
          : await t.app.inject({ method: 'POST', url: '/api/auth/two-factor/verify-totp', headers: { origin: t.config.publicUrl, 'content-type': 'application/x-www-form-urlencoded', cookie: pending }, payload: 'code=000000' });
      expect(wrong.statusCode, wrong.body).toBe(401);
    }
    const locked = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(user.key, now() + 30) }, { cookie: await passwordStep(user) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json<{ message: string }>().message).toMatch(/locked|try again/i);
  });

  it('turning it off asks for a code (limited per account), then sign-in needs none', async () => {
    const user = await enrolledUser();
    const noCode = await post(t.app, '/api/auth/two-factor/disable', { password: user.password }, { cookie: user.cookie });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({ code: 'CODE_REQUIRED' });
    const wrongCode = await post(t.app, '/api/auth/two-factor/disable', { password: user.password, code: '000000' }, { cookie: user.cookie });
    expect(wrongCode.statusCode).toBe(401);
    expect(await twoFactorOn(user.id)).toBe(true);
    const off = await post(t.app, '/api/auth/two-factor/disable', { password: user.password, code: user.backupCodes[0] }, { cookie: user.cookie });
    expect(off.statusCode, off.body).toBe(200);
    expect(await twoFactorOn(user.id)).toBe(false);
    const plain = await post(t.app, '/api/auth/sign-in/email', { email: user.email, password: user.password });
    expect(await sessionEmail(t.app, plain.cookie)).toBe(user.email);

    // Codes sent while signed in: 5 per account in 15 minutes, whatever the code.
    const other = await enrolledUser();
    for (let i = 0; i < 4; i++) {
      expect((await post(t.app, '/api/auth/two-factor/disable', { password: other.password, code: '000000' }, { cookie: other.cookie })).statusCode).toBe(401);
    }
    const limited = await post(t.app, '/api/auth/two-factor/disable', { password: other.password, code: other.backupCodes[0] }, { cookie: other.cookie });
    expect(limited.statusCode).toBe(429);
    expect(await twoFactorOn(other.id)).toBe(true);
  });

  it('deleting the account removes its second factors and sessions', async () => {
    const user = await enrolledUser();
    await t.database.db
      .insertInto('passkey')
      .values({ id: `pk-${user.id}`, name: 'Laptop', publicKey: 'AQID', userId: user.id, credentialID: `cred-${user.id}`, counter: 0, deviceType: 'singleDevice', backedUp: false, transports: 'internal', createdAt: new Date(), aaguid: null })
      .execute();
    const deleted = await call(t.app, 'DELETE', '/api/account', { password: user.password }, { cookie: user.cookie });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    for (const table of ['twoFactor', 'passkey', 'session'] as const) {
      const rows = await t.database.db.selectFrom(table).select('userId').where('userId', '=', user.id).execute();
      expect(rows, table).toEqual([]);
    }
  });
});

describe('staff must have a second factor (STAFF_REQUIRE_SECOND_FACTOR)', () => {
  const staffEmail = uniqueEmail('editor');
  const t = useTestApp({ MODERATOR_EMAILS: staffEmail, STAFF_REQUIRE_SECOND_FACTOR: 'true' });

  it('answers a staff account’s API calls with 403 until it enrols; others are unaffected', async () => {
    const staff = await signUpUser(t.app, { email: staffEmail });
    const reader = await signUpUser(t.app);
    const session = await get(t.app, '/api/auth/get-session', { cookie: staff.cookie });
    expect(session.json()).toMatchObject({ user: { email: staffEmail }, secondFactorRequired: true });
    expect((await get(t.app, '/api/auth/get-session', { cookie: reader.cookie })).json()).not.toHaveProperty('secondFactorRequired');

    const refused = await get(t.app, '/api/moderation', { cookie: staff.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'SECOND_FACTOR_REQUIRED', message: expect.stringMatching(/authenticator app or a passkey/) });
    expect((await get(t.app, '/api/account/sessions', { cookie: staff.cookie })).statusCode).toBe(403);
    // What enrolment needs stays open.
    expect((await get(t.app, '/api/account', { cookie: staff.cookie })).statusCode).toBe(200);
    expect((await get(t.app, '/api/account/sessions', { cookie: reader.cookie })).statusCode).toBe(200);

    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: staff.password }, { cookie: staff.cookie });
    const key = keyOfUri(enabled.json<{ totpURI: string }>().totpURI);
    const confirmed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now()) }, { cookie: staff.cookie });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await get(t.app, '/api/moderation', { cookie: confirmed.cookie })).statusCode).toBe(200);
    expect((await get(t.app, '/api/auth/get-session', { cookie: confirmed.cookie })).json()).not.toHaveProperty('secondFactorRequired');
  });
});

describe('what the log keeps of second factors', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  // The production logger's options (its serializers and redactions), at its most talkative level.
  const logger = { ...(loggerOptions(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'trace', AUTH_SECRET: 'x'.repeat(32) })) as object), stream };
  const t = useTestApp({ LOG_LEVEL: 'trace' }, { logger });

  it('has no code, secret, backup code or challenge in any line', async () => {
    const user = await signUpUser(t.app);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    const { totpURI, backupCodes } = enabled.json<{ totpURI: string; backupCodes: string[] }>();
    const secret = new URL(totpURI).searchParams.get('secret')!;
    const code = totp(keyOfUri(totpURI), now());
    await post(t.app, '/api/auth/two-factor/verify-totp', { code }, { cookie: user.cookie });
    const signIn = await post(t.app, '/api/auth/sign-in/email', { email: user.email, password: user.password });
    await post(t.app, '/api/auth/two-factor/verify-totp', { code: '123456' }, { cookie: cookiesOf(signIn) });
    const signedIn = await post(t.app, '/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] }, { cookie: cookiesOf(signIn) });
    const options = await get(t.app, '/api/auth/passkey/generate-register-options', { cookie: signedIn.cookie });
    expect(options.statusCode, options.body).toBe(200);
    const { challenge } = options.json<{ challenge: string }>();

    const log = lines.join('');
    expect(log).toContain('/api/auth/two-factor/verify-totp');
    for (const kept of [secret, code, '123456', challenge, ...backupCodes]) expect(log).not.toContain(kept);
  });
});
