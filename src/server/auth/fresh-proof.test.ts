import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FRESH_PROOF_MINUTES } from '../../shared/account-schema.js';
import { call, codeOf, cookiesOf, get, mailsTo, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';
import { useTestApp } from '../testing/test-app.js';
import { keyOfUri, totp } from '../testing/totp.js';
import { signUpUser, uniqueEmail, type TestUser } from '../testing/test-users.js';
import { passkeyRegistration } from '../testing/webauthn.js';

const now = () => Math.floor(Date.now() / 1000);

describe('a new way in needs a fresh proof (issue 56)', () => {
  const t = useTestApp();
  const db = () => t.database.db;

  /** The account's sessions, as if signed in `minutes` ago: a cookie someone kept. */
  const ageSessions = (userId: string, minutes = FRESH_PROOF_MINUTES + 1) =>
    db()
      .updateTable('session')
      .set({ createdAt: sql<Date>`now() - ${`${minutes} minutes`}::interval` })
      .where('userId', '=', userId)
      .execute();

  const passkeyCount = async (userId: string) => (await db().selectFrom('passkey').select('id').where('userId', '=', userId).execute()).length;
  const twoFactorOn = async (userId: string) =>
    Boolean((await db().selectFrom('user').select('twoFactorEnabled').where('id', '=', userId).executeTakeFirstOrThrow()).twoFactorEnabled);

  /** Better Auth's two calls for a new passkey, the second answered by a software authenticator. */
  async function addPasskey(cookie: string, name: string) {
    const options = await get(t.app, `/api/auth/passkey/generate-register-options?name=${encodeURIComponent(name)}`, { cookie });
    if (options.statusCode !== 200) return options;
    const response = passkeyRegistration(options.json(), new URL(t.config.publicUrl).origin);
    return post(t.app, '/api/auth/passkey/verify-registration', { response, name }, { cookie: `${cookie}; ${options.cookie}` });
  }

  /** A passwordless account (signed up by an e-mailed code) and its session. */
  async function passwordlessUser(email = uniqueEmail('nopass')) {
    const earlier = (await mailsTo(t, email)).filter((mail) => /sign-in code/.test(mail.subject)).length;
    await post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const otp = codeOf((await waitForMail(t, email, /sign-in code/, earlier + 1)).text);
    const signedIn = await post(t.app, '/api/auth/sign-in/email-otp', { email, otp });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const row = await db().selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    return { id: row.id, email, cookie: signedIn.cookie };
  }

  it('a session older than the proof window adds no passkey; after the password it does, and the account is mailed', async () => {
    const user = await signUpUser(t.app);
    // Just signed up: signing in is the proof.
    expect((await get(t.app, '/api/auth/passkey/generate-register-options', { cookie: user.cookie })).statusCode).toBe(200);

    await ageSessions(user.id);
    const refused = await get(t.app, '/api/auth/passkey/generate-register-options', { cookie: user.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FRESH_PROOF_REQUIRED', message: expect.stringMatching(/confirm it is you/) });
    const straightToVerify = await post(t.app, '/api/auth/passkey/verify-registration', { response: {} }, { cookie: user.cookie });
    expect(straightToVerify.statusCode).toBe(403);
    expect(await passkeyCount(user.id)).toBe(0);

    const wrong = await post(t.app, '/api/account/fresh-proof', { password: 'not the password' }, { cookie: user.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'INVALID_PASSWORD' });
    expect((await get(t.app, '/api/auth/passkey/generate-register-options', { cookie: user.cookie })).statusCode).toBe(403);

    const proven = await post(t.app, '/api/account/fresh-proof', { password: user.password }, { cookie: user.cookie });
    expect(proven.statusCode, proven.body).toBe(204);
    const added = await addPasskey(user.cookie, 'Work laptop');
    expect(added.statusCode, added.body).toBe(200);
    expect(await passkeyCount(user.id)).toBe(1);
    const mail = await waitForMail(t, user.email, /^A passkey was added to your .+ account$/);
    expect(mail.text).toContain('"Work laptop"');
    expect(mail.text).toContain(`${t.config.publicUrl}/settings`);

    // The proof holds for this session only, and only for its minutes.
    const elsewhere = (await post(t.app, '/api/auth/sign-in/email', { email: user.email, password: user.password })).cookie;
    await ageSessions(user.id);
    expect((await get(t.app, '/api/auth/passkey/generate-register-options', { cookie: elsewhere })).statusCode).toBe(403);
    expect((await get(t.app, '/api/auth/passkey/generate-register-options', { cookie: user.cookie })).statusCode).toBe(200);
    await db().updateTable('verification').set({ expiresAt: new Date(Date.now() - 1000) }).where('identifier', 'like', 'fresh-proof-%').execute();
    expect((await get(t.app, '/api/auth/passkey/generate-register-options', { cookie: user.cookie })).statusCode).toBe(403);
  });

  it('an old session of a password account sets up an authenticator app only with the password, checked before anything else', async () => {
    const user = await signUpUser(t.app);
    await ageSessions(user.id);
    const bare = await post(t.app, '/api/auth/two-factor/enable', {}, { cookie: user.cookie });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
    // A proof a minute old is no password: Better Auth asks a password account for it every time.
    expect((await post(t.app, '/api/account/fresh-proof', { password: user.password }, { cookie: user.cookie })).statusCode).toBe(204);
    expect((await post(t.app, '/api/auth/two-factor/enable', {}, { cookie: user.cookie })).statusCode).toBe(400);
    const wrong = await post(t.app, '/api/auth/two-factor/enable', { password: 'not the password' }, { cookie: user.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
    expect(await db().selectFrom('twoFactor').select('id').where('userId', '=', user.id).execute()).toEqual([]);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const key = keyOfUri(enabled.json<{ totpURI: string }>().totpURI);
    const confirmed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now()) }, { cookie: user.cookie });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await waitForMail(t, user.email, /^Two-factor authentication was turned on for your .+ account$/);

    // New backup codes: the password again, or refused.
    await ageSessions(user.id);
    expect((await post(t.app, '/api/auth/two-factor/generate-backup-codes', { password: 'not the password' }, { cookie: confirmed.cookie })).statusCode).toBe(400);
    const codes = await post(t.app, '/api/auth/two-factor/generate-backup-codes', { password: user.password }, { cookie: confirmed.cookie });
    expect(codes.statusCode, codes.body).toBe(200);
    await waitForMail(t, user.email, /^New backup codes were made for your .+ account$/);
  });

  it('a passwordless account proves itself with its authenticator code, or by signing in again', async () => {
    const user = await passwordlessUser();
    await ageSessions(user.id);
    const refused = await post(t.app, '/api/auth/two-factor/enable', {}, { cookie: user.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FRESH_PROOF_REQUIRED' });
    expect((await post(t.app, '/api/account/fresh-proof', { password: 'anything at all' }, { cookie: user.cookie })).json()).toMatchObject({ error: 'NO_PASSWORD' });
    expect((await post(t.app, '/api/account/fresh-proof', { code: '123456' }, { cookie: user.cookie })).json()).toMatchObject({ error: 'NO_SECOND_FACTOR' });

    // Signing in again is the proof.
    const again = await passwordlessUser(user.email);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', {}, { cookie: again.cookie });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const key = keyOfUri(enabled.json<{ totpURI: string }>().totpURI);
    const confirmed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now()) }, { cookie: again.cookie });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    await ageSessions(user.id);
    expect((await post(t.app, '/api/auth/two-factor/generate-backup-codes', {}, { cookie: confirmed.cookie })).statusCode).toBe(403);
    const wrongCode = await post(t.app, '/api/account/fresh-proof', { code: totp(key, now()) === '000000' ? '111111' : '000000' }, { cookie: confirmed.cookie });
    expect(wrongCode.statusCode).toBe(401);
    expect(wrongCode.json()).toMatchObject({ error: 'INVALID_CODE' });
    const proven = await post(t.app, '/api/account/fresh-proof', { code: totp(key, now() + 30) }, { cookie: confirmed.cookie });
    expect(proven.statusCode, proven.body).toBe(204);
    const fresh = await post(t.app, '/api/auth/two-factor/generate-backup-codes', {}, { cookie: confirmed.cookie });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const [backupCode] = fresh.json<{ backupCodes: string[] }>().backupCodes;

    // Turning it off needs no fresh session: its code is the proof.
    await ageSessions(user.id);
    const off = await post(t.app, '/api/auth/two-factor/disable', { code: backupCode }, { cookie: confirmed.cookie });
    expect(off.statusCode, off.body).toBe(200);
    expect(await twoFactorOn(user.id)).toBe(false);
    await waitForMail(t, user.email, /^Two-factor authentication was turned off for your .+ account$/);
  });

  it('a refused disable (wrong password) spends no backup code', async () => {
    const user = await signUpUser(t.app);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    const { totpURI, backupCodes } = enabled.json<{ totpURI: string; backupCodes: string[] }>();
    const confirmed = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(keyOfUri(totpURI), now()) }, { cookie: user.cookie });
    const code = backupCodes[0]!;
    for (const password of ['not the password', undefined]) {
      const refused = await post(t.app, '/api/auth/two-factor/disable', { password, code }, { cookie: confirmed.cookie });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
    }
    const off = await post(t.app, '/api/auth/two-factor/disable', { password: user.password, code }, { cookie: confirmed.cookie });
    expect(off.statusCode, off.body).toBe(200);
    expect(await twoFactorOn(user.id)).toBe(false);
  });

  it('no browser is trusted: trustDevice is dropped, and a trust_device cookie skips no second step', async () => {
    const user: TestUser = await signUpUser(t.app);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    const key = keyOfUri(enabled.json<{ totpURI: string }>().totpURI);
    await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now()) }, { cookie: user.cookie });
    const passwordStep = (cookie?: string) => post(t.app, '/api/auth/sign-in/email', { email: user.email, password: user.password }, { cookie });

    const pending = await passwordStep();
    const verified = await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now() + 30), trustDevice: true }, { cookie: cookiesOf(pending) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(cookiesOf(verified)).not.toContain('trust_device');
    expect(await db().selectFrom('verification').select('id').where('identifier', 'like', 'trust-device-%').where('value', '=', user.id).execute()).toEqual([]);
    const next = await passwordStep(cookiesOf(verified));
    expect(next.json()).toMatchObject({ twoFactorRedirect: true });
    expect(cookiesOf(next)).not.toMatch(/session_token=[^;]/);

    // A trust_device cookie as Better Auth made them (an older version of this site did): ignored.
    const secret = t.config.authSecret;
    const identifier = `trust-device-${randomUUID()}`;
    await db().insertInto('verification').values({ id: randomUUID(), identifier, value: user.id, expiresAt: new Date(Date.now() + 86_400_000), createdAt: new Date(), updatedAt: new Date() }).execute();
    const value = `${createHmac('sha256', secret).update(`${user.id}!${identifier}`).digest('base64url')}!${identifier}`;
    const signed = `${value}.${createHmac('sha256', secret).update(value).digest('base64')}`;
    const trusted = await passwordStep(`better-auth.trust_device=${encodeURIComponent(signed)}`);
    expect(trusted.statusCode, trusted.body).toBe(200);
    expect(trusted.json()).toMatchObject({ twoFactorRedirect: true });
    expect(cookiesOf(trusted)).not.toMatch(/session_token=[^;]/);
    expect(await sessionEmail(t.app, cookiesOf(trusted))).toBeNull();
  });

  it('the e-mail address cannot be changed at all, fresh session or not', async () => {
    const user = await signUpUser(t.app);
    const attempts = [
      await post(t.app, '/api/auth/change-email', { newEmail: uniqueEmail('taken') }, { cookie: user.cookie }),
      await post(t.app, '/api/auth/email-otp/request-email-change', { newEmail: uniqueEmail('taken') }, { cookie: user.cookie }),
      await post(t.app, '/api/auth/update-user', { email: uniqueEmail('taken') }, { cookie: user.cookie }),
    ];
    for (const attempt of attempts) expect(attempt.statusCode, attempt.body).toBeGreaterThanOrEqual(400);
    expect(await sessionEmail(t.app, user.cookie)).toBe(user.email);
    expect((await mailsTo(t, user.email)).filter((mail) => /e-mail address was changed/i.test(mail.subject))).toEqual([]);
    expect((await call(t.app, 'GET', '/api/account', undefined, { cookie: user.cookie })).json()).toMatchObject({ email: user.email });
  });
});
