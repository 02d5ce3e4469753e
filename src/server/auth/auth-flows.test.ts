import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { uniqueEmail } from '../testing/test-users.js';
import { OTP_ALLOWED_ATTEMPTS, TOKEN_TTL_SECONDS } from './auth.js';
import { codeOf, get, linkParts, mailsTo, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';

const PASSWORD = 'correct horse battery';

/** Every flow that sends a link or a code, with e-mail verification on (the default). */
describe('account flows by e-mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_REQUIRE_EMAIL_VERIFICATION: 'true' });
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const signUp = (email: string, password = PASSWORD) =>
    post(t.app, '/api/auth/sign-up/email', { email, password, name: email.split('@')[0] });
  const signIn = (email: string, password = PASSWORD) => post(t.app, '/api/auth/sign-in/email', { email, password });

  /** A signed-up user who confirmed their address. */
  async function verifiedUser() {
    const email = uniqueEmail();
    expect((await signUp(email)).statusCode).toBe(200);
    const { token } = linkParts((await waitForMail(t, email, /confirm/i)).links[0]!);
    const verified = await get(t.app, `/api/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect(verified.statusCode).toBe(200);
    return { email, cookie: verified.cookie };
  }

  /** Moves a link's or code's expiry into the past, as if its 10 minutes had gone by. */
  /** Posts a verified user's address and an unknown one (`uniqueEmail(unknownName)`) to `path`: the answers must not tell them apart. */
  async function expectUnknownAnsweredLikeKnown(path: string, unknownName: string) {
    const { email } = await verifiedUser();
    const unknown = uniqueEmail(unknownName);
    const known = await post(t.app, path, { email });
    const stranger = await post(t.app, path, { email: unknown });
    expect(stranger.statusCode).toBe(known.statusCode);
    expect(stranger.body).toBe(known.body);
    return { email, unknown };
  }

  async function expire(identifier: string) {
    const result = await t.database.db
      .updateTable('verification')
      .set({ expiresAt: sql<Date>`now() - interval '1 second'` })
      .where('identifier', '=', identifier)
      .executeTakeFirst();
    expect(Number(result.numUpdatedRows)).toBe(1);
  }

  describe('sign-up with e-mail verification', () => {
    it('creates the user without a session and e-mails a link to our confirmation page', async () => {
      const email = uniqueEmail();
      const response = await signUp(email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ token: null, user: { email, emailVerified: false } });
      expect(response.cookie).not.toContain('session_token');

      const mail = await waitForMail(t, email, /Confirm your e-mail address/);
      const link = linkParts(mail.links[0]!);
      expect(mail.links[0]!.startsWith(`${TEST_PUBLIC_URL}/auth?`)).toBe(true);
      expect(link).toMatchObject({ path: '/auth', view: 'confirm_email' });
      expect(link.token.length).toBeGreaterThan(20);
      expect(mail.text).toContain('10 minutes');

      // Until the address is confirmed, the password does not sign in.
      const early = await signIn(email);
      expect(early.statusCode).toBe(403);
      expect(early.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    });

    it('a plain GET of the e-mailed link (a mail scanner) confirms nothing; the page’s call does, once', async () => {
      const email = uniqueEmail();
      await signUp(email);
      const mail = await waitForMail(t, email, /confirm/i);
      const { token } = linkParts(mail.links[0]!);

      await t.app.inject({ method: 'GET', url: new URL(mail.links[0]!).pathname + new URL(mail.links[0]!).search });
      expect((await signIn(email)).statusCode).toBe(403);

      const verified = await get(t.app, `/api/auth/verify-email?token=${encodeURIComponent(token)}`);
      expect(verified.statusCode).toBe(200);
      expect(await sessionEmail(t.app, verified.cookie)).toBe(email);
      expect((await signIn(email)).statusCode).toBe(200);

      // The same link again signs nobody in.
      const again = await get(t.app, `/api/auth/verify-email?token=${encodeURIComponent(token)}`);
      expect(again.statusCode).toBe(200);
      expect(again.cookie).not.toContain('session_token');
    });

    it('the confirmation link expires after 10 minutes', async () => {
      const email = uniqueEmail();
      await signUp(email);
      const { token } = linkParts((await waitForMail(t, email, /confirm/i)).links[0]!);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (TOKEN_TTL_SECONDS + 5) * 1000 });
      const late = await get(t.app, `/api/auth/verify-email?token=${encodeURIComponent(token)}`);
      vi.useRealTimers();
      expect(late.statusCode).toBe(401);
      expect(late.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
      expect(late.cookie).not.toContain('session_token');
      expect((await signIn(email)).statusCode).toBe(403);
    });

    it('signing up again with a registered address answers like a new sign-up and tells the owner', async () => {
      const { email } = await verifiedUser();
      const fresh = await signUp(uniqueEmail());
      const duplicate = await signUp(email, 'another password 123');
      expect(duplicate.statusCode).toBe(fresh.statusCode);
      expect(Object.keys(duplicate.json() as object).sort()).toEqual(Object.keys(fresh.json() as object).sort());
      expect(duplicate.json()).toMatchObject({ token: null, user: { email, emailVerified: false } });
      await waitForMail(t, email, /already have an account/);
      // The stranger's password was not set on the account.
      expect((await signIn(email, 'another password 123')).statusCode).toBe(401);
      expect((await signIn(email)).statusCode).toBe(200);
    });
  });

  describe('password reset', () => {
    it('e-mails a link to our update_password view; the new password works, the old one and the link no longer', async () => {
      const { email, cookie: oldSession } = await verifiedUser();
      const request = await post(t.app, '/api/auth/request-password-reset', { email });
      expect(request.statusCode).toBe(200);
      const mail = await waitForMail(t, email, /Reset your password/);
      const link = linkParts(mail.links[0]!);
      expect(link).toMatchObject({ path: '/auth', view: 'update_password' });

      // Opening the link (a plain GET) spends nothing.
      await t.app.inject({ method: 'GET', url: `/auth?view=update_password&token=${encodeURIComponent(link.token)}` });

      const reset = await post(t.app, '/api/auth/reset-password', { newPassword: 'a brand new secret', token: link.token });
      expect(reset.statusCode).toBe(200);
      expect((await signIn(email, 'a brand new secret')).statusCode).toBe(200);
      expect((await signIn(email)).statusCode).toBe(401);
      // Sessions from before the reset end with it.
      expect(await sessionEmail(t.app, oldSession)).toBeNull();

      const reuse = await post(t.app, '/api/auth/reset-password', { newPassword: 'yet another secret', token: link.token });
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json()).toMatchObject({ code: 'INVALID_TOKEN' });
      expect((await signIn(email, 'yet another secret')).statusCode).toBe(401);
    });

    it('refuses a new password shorter than 8 characters', async () => {
      const { email } = await verifiedUser();
      await post(t.app, '/api/auth/request-password-reset', { email });
      const { token } = linkParts((await waitForMail(t, email, /Reset/)).links[0]!);
      const short = await post(t.app, '/api/auth/reset-password', { newPassword: 'short', token });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ code: 'PASSWORD_TOO_SHORT' });
    });

    it('answers an unknown address exactly like a registered one, and sends it nothing', async () => {
      const { email, unknown } = await expectUnknownAnsweredLikeKnown('/api/auth/request-password-reset', 'nobody');
      await waitForMail(t, email, /Reset/);
      expect(await mailsTo(t, unknown)).toEqual([]);
    });

    it('the reset link expires after 10 minutes', async () => {
      const { email } = await verifiedUser();
      await post(t.app, '/api/auth/request-password-reset', { email });
      const { token } = linkParts((await waitForMail(t, email, /Reset/)).links[0]!);
      const row = await t.database.db.selectFrom('verification').select('expiresAt').where('identifier', '=', `reset-password:${token}`).executeTakeFirstOrThrow();
      const lifetime = new Date(row.expiresAt).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(0);
      expect(lifetime).toBeLessThanOrEqual(TOKEN_TTL_SECONDS * 1000);

      await expire(`reset-password:${token}`);
      const late = await post(t.app, '/api/auth/reset-password', { newPassword: 'a brand new secret', token });
      expect(late.statusCode).toBe(400);
      expect((await signIn(email)).statusCode).toBe(200);
    });
  });

  describe('magic link', () => {
    const magicIdentifier = (token: string) => `magic-link:${createHash('sha256').update(token).digest('base64url')}`;
    const verifyLink = (token: string) => get(t.app, `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`);

    it('e-mails a link to our page; a plain GET spends nothing; the page’s call signs in once', async () => {
      const { email } = await verifiedUser();
      const sent = await post(t.app, '/api/auth/sign-in/magic-link', { email });
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({ status: true });
      const mail = await waitForMail(t, email, /sign-in link/);
      const link = linkParts(mail.links[0]!);
      expect(link).toMatchObject({ path: '/auth', view: 'magic_link_confirm' });
      // The token is stored hashed: the database alone does not give it away.
      const stored = await t.database.db.selectFrom('verification').select('identifier').where('identifier', '=', `magic-link:${link.token}`).execute();
      expect(stored).toEqual([]);

      await t.app.inject({ method: 'GET', url: `/auth?view=magic_link_confirm&token=${encodeURIComponent(link.token)}` });

      const first = await verifyLink(link.token);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ user: { email } });
      expect(await sessionEmail(t.app, first.cookie)).toBe(email);

      const second = await verifyLink(link.token);
      expect(second.statusCode).toBe(302);
      expect(second.headers.location).toContain('error=INVALID_TOKEN');
      expect(second.cookie).not.toContain('session_token');
    });

    it('answers an unknown address like a registered one (the link then creates the account)', async () => {
      const { unknown } = await expectUnknownAnsweredLikeKnown('/api/auth/sign-in/magic-link', 'new');
      const { token } = linkParts((await waitForMail(t, unknown, /sign-in link/)).links[0]!);
      const signedIn = await verifyLink(token);
      expect(await sessionEmail(t.app, signedIn.cookie)).toBe(unknown);
    });

    it('the link expires after 10 minutes', async () => {
      const { email } = await verifiedUser();
      await post(t.app, '/api/auth/sign-in/magic-link', { email });
      const { token } = linkParts((await waitForMail(t, email, /sign-in link/)).links[0]!);
      await expire(magicIdentifier(token));
      const late = await verifyLink(token);
      expect(late.statusCode).toBe(302);
      expect(late.headers.location).toContain('error=INVALID_TOKEN');
      expect(late.cookie).not.toContain('session_token');
    });
  });

  describe('one-time code (verify_otp)', () => {
    const sendCode = (email: string) => post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const useCode = (email: string, otp: string) => post(t.app, '/api/auth/sign-in/email-otp', { email, otp });

    it('e-mails a 6-digit code that signs in once', async () => {
      const { email } = await verifiedUser();
      expect((await sendCode(email)).json()).toEqual({ success: true });
      const code = codeOf((await waitForMail(t, email, /sign-in code/)).text);
      const first = await useCode(email, code);
      expect(first.statusCode).toBe(200);
      expect(await sessionEmail(t.app, first.cookie)).toBe(email);
      const again = await useCode(email, code);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'INVALID_OTP' });
    });

    it(`allows ${OTP_ALLOWED_ATTEMPTS} tries, then not even the right code works`, async () => {
      const { email } = await verifiedUser();
      await sendCode(email);
      const code = codeOf((await waitForMail(t, email, /sign-in code/)).text);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < OTP_ALLOWED_ATTEMPTS; i++) {
        const attempt = await useCode(email, wrong);
        expect(attempt.statusCode).toBe(400);
        expect(attempt.json()).toMatchObject({ code: 'INVALID_OTP' });
      }
      const locked = await useCode(email, code);
      expect(locked.statusCode).toBe(403);
      expect(locked.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
      expect(locked.cookie).not.toContain('session_token');
    });

    it('a code expires after 10 minutes', async () => {
      const { email } = await verifiedUser();
      await sendCode(email);
      const code = codeOf((await waitForMail(t, email, /sign-in code/)).text);
      await expire(`sign-in-otp-${email}`);
      const late = await useCode(email, code);
      expect(late.statusCode).toBe(400);
      expect(late.json()).toMatchObject({ code: 'OTP_EXPIRED' });
    });

    it('answers an unknown address like a registered one', async () => {
      const { email } = await verifiedUser();
      const known = await sendCode(email);
      const stranger = await sendCode(uniqueEmail('nobody'));
      expect(stranger.statusCode).toBe(known.statusCode);
      expect(stranger.body).toBe(known.body);
    });
  });

  describe('redirect targets', () => {
    const evil = 'https://evil.example/steal';

    it('are refused when they leave our origin, and accepted as our own paths', async () => {
      const { email } = await verifiedUser();
      const cases = [
        post(t.app, '/api/auth/sign-in/magic-link', { email, callbackURL: evil }),
        post(t.app, '/api/auth/sign-in/magic-link', { email, callbackURL: '/auth', errorCallbackURL: evil }),
        post(t.app, '/api/auth/request-password-reset', { email, redirectTo: evil }),
        post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password: PASSWORD, name: 'x', callbackURL: evil }),
        post(t.app, '/api/auth/sign-in/email', { email, password: PASSWORD, callbackURL: evil }),
        get(t.app, `/api/auth/magic-link/verify?token=whatever&callbackURL=${encodeURIComponent(evil)}`),
        get(t.app, `/api/auth/verify-email?token=whatever&callbackURL=${encodeURIComponent(evil)}`),
      ];
      for (const response of await Promise.all(cases)) {
        expect(response.statusCode, response.body).toBe(403);
      }
      const own = await post(t.app, '/api/auth/sign-in/magic-link', { email: uniqueEmail(), callbackURL: '/auth' });
      expect(own.statusCode).toBe(200);
    });
  });
});
