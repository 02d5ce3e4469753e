import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registration } from '../../shared/site-settings-schema.js';
import { codeOf, get, linkParts, mailsTo, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';
import { hashInvitationToken } from '../core/invitations.repository.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp, type TestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, uniqueEmail, type TestUser } from '../testing/test-users.js';

const roleOf = async (t: TestApp, email: string) =>
  (await t.database.db.selectFrom('user').select('role').where('email', '=', email).executeTakeFirst())?.role;

describe('registration holds however an account is made (issue 44)', () => {
  const t = useTestApp();
  let admin: TestUser;

  beforeAll(async () => {
    admin = await signUpUser(t.app);
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', admin.id).execute();
  });

  const setRegistration = async (registration: Registration, defaultRole: 'author' | 'contributor' | 'reader' | 'editor' = 'author') =>
    t.app.siteSettings.save({ ...(await t.app.siteSettings.get()), registration, defaultRole });

  /** Each way a new address can become an account; answers the response that made (or refused) it. */
  const paths = {
    'email sign-up': async (email: string) => post(t.app, '/api/auth/sign-up/email', { email, password: 'correct horse battery', name: 'x' }),
    'magic link': async (email: string) => {
      expect((await post(t.app, '/api/auth/sign-in/magic-link', { email })).statusCode).toBe(200);
      const { token } = linkParts((await waitForMail(t, email, /sign-in link/)).links[0]!);
      return get(t.app, `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
    },
    'email code': async (email: string) => {
      expect((await post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).statusCode).toBe(200);
      const code = codeOf((await waitForMail(t, email, /sign-in code/)).text);
      return post(t.app, '/api/auth/sign-in/email-otp', { email, otp: code });
    },
  };

  const invite = async (email: string, role: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/invitations',
      headers: { origin: TEST_PUBLIC_URL, cookie: admin.cookie },
      remoteAddress: randomIp(),
      payload: { email, role },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>();
  };

  afterAll(() => setRegistration('open'));

  describe.each(Object.entries(paths))('%s', (name, makeAccount) => {
    it('open: a new address gets the site’s default role', async () => {
      await setRegistration('open', 'contributor');
      const email = uniqueEmail('open');
      const response = await makeAccount(email);
      expect(response.statusCode, response.body).toBe(200);
      expect(await sessionEmail(t.app, response.cookie)).toBe(email);
      expect(await roleOf(t, email)).toBe('contributor');
    });

    it.each([
      ['closed', 'This site is not taking new accounts.'],
      ['invitation', 'This site takes new accounts by invitation only.'],
    ] as const)('%s: a new address is refused in words; no account is made', async (mode, words) => {
      await setRegistration(mode);
      const email = uniqueEmail(mode);
      const response = await makeAccount(email);
      expect(response.statusCode).toBe(403);
      expect(response.json<{ message: string }>().message).toContain(words);
      expect(await roleOf(t, email)).toBeUndefined();
    });

    // A magic link or code reaches the invited mailbox, as the invitation did (issue 56); a password proves nothing.
    if (name === 'email sign-up') return;
    it('invitation: an invited address signs up this way (the mailbox proven) and gets the invitation’s role, once', async () => {
      await setRegistration('invitation');
      const email = uniqueEmail('invited');
      const { id } = await invite(email, 'editor');
      const response = await makeAccount(email);
      expect(response.statusCode, response.body).toBe(200);
      expect(await roleOf(t, email)).toBe('editor');
      const row = await t.database.db.selectFrom('invitations').select(['accepted_at', 'accepted_user_id']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.accepted_at).not.toBeNull();
      expect(row.accepted_user_id).not.toBeNull();
    });
  });

  it('closed: an existing account still signs in, and e-mail sign-up answers a registered address as a new one', async () => {
    await setRegistration('open');
    const existing = await signUpUser(t.app);
    await setRegistration('closed');
    const signIn = await post(t.app, '/api/auth/sign-in/email', { email: existing.email, password: existing.password });
    expect(signIn.statusCode).toBe(200);
    const again = await post(t.app, '/api/auth/sign-up/email', { email: existing.email, password: 'another password 1', name: 'x' });
    const fresh = await post(t.app, '/api/auth/sign-up/email', { email: uniqueEmail(), password: 'another password 1', name: 'x' });
    expect([again.statusCode, again.json<{ code: string }>().code]).toEqual([fresh.statusCode, fresh.json<{ code: string }>().code]);
  });

  describe('invitation links', () => {
    const accept = (token: string, password = 'invited password 1') => post(t.app, '/api/invitations/accept', { token, password });

    it('mails a link whose GET spends nothing; the page’s POST makes the account with the role, once; only a hash is stored', async () => {
      await setRegistration('closed');
      const email = uniqueEmail('link');
      await invite(email, 'contributor');
      const mail = await waitForMail(t, email, /invited/);
      const link = linkParts(mail.links[0]!);
      expect(link).toMatchObject({ path: '/auth', view: 'accept_invitation' });
      const stored = await t.database.db.selectFrom('invitations').select('token_hash').where('email', '=', email).executeTakeFirstOrThrow();
      expect(stored.token_hash).not.toContain(link.token);

      await t.app.inject({ method: 'GET', url: `/auth?view=accept_invitation&token=${encodeURIComponent(link.token)}` });
      expect(await roleOf(t, email)).toBeUndefined();

      const accepted = await accept(link.token);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toEqual({ email });
      expect(await roleOf(t, email)).toBe('contributor');
      expect((await post(t.app, '/api/auth/sign-in/email', { email, password: 'invited password 1' })).statusCode).toBe(200);

      const twice = await accept(link.token);
      expect(twice.statusCode).toBe(400);
      expect(twice.json<{ message: string }>().message).toContain('does not work any more');
    });

    it.each([
      ['open', 200, undefined],
      ['invitation', 403, 'REGISTRATION_BY_INVITATION'],
      ['closed', 403, 'REGISTRATION_CLOSED'],
    ] as const)('%s: a plain sign-up as the invited address is an ordinary one; the token still gives its holder the account and role (issue 56)', async (mode, status, code) => {
      await setRegistration(mode);
      const email = uniqueEmail('squat');
      const { id } = await invite(email, 'editor');
      const token = linkParts((await waitForMail(t, email, /invited/)).links[0]!).token;
      const stranger = await post(t.app, '/api/auth/sign-up/email', { email, password: 'stranger password 1', name: 'x' });
      expect(stranger.statusCode, stranger.body).toBe(status);
      if (code) expect(stranger.json()).toMatchObject({ code });
      expect(await roleOf(t, email)).toBe(status === 200 ? 'author' : undefined);
      const pending = await t.database.db.selectFrom('invitations').select('accepted_at').where('id', '=', id).executeTakeFirstOrThrow();
      expect(pending.accepted_at).toBeNull();

      const accepted = await accept(token);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(await roleOf(t, email)).toBe('editor');
      expect((await post(t.app, '/api/auth/sign-in/email', { email, password: 'invited password 1' })).statusCode).toBe(200);
      // Whatever the stranger had is gone: the password, and the session the sign-up made.
      expect((await post(t.app, '/api/auth/sign-in/email', { email, password: 'stranger password 1' })).statusCode).toBe(401);
      if (stranger.cookie) expect(await sessionEmail(t.app, stranger.cookie)).toBeNull();
      expect((await accept(token)).statusCode).toBe(400);
    });

    it('an expired or revoked invitation makes nothing', async () => {
      const expiredEmail = uniqueEmail('expired');
      await invite(expiredEmail, 'author');
      const expiredToken = linkParts((await waitForMail(t, expiredEmail, /invited/)).links[0]!).token;
      await t.database.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('email', '=', expiredEmail).execute();
      expect((await accept(expiredToken)).statusCode).toBe(400);
      expect(await roleOf(t, expiredEmail)).toBeUndefined();

      const revokedEmail = uniqueEmail('revoked');
      const { id } = await invite(revokedEmail, 'author');
      const revokedToken = linkParts((await waitForMail(t, revokedEmail, /invited/)).links[0]!).token;
      const listed = await t.app.inject({ method: 'GET', url: '/api/admin/invitations', headers: { cookie: admin.cookie } });
      expect(listed.json<{ items: { id: string }[] }>().items.map((item) => item.id)).toContain(id);
      const revoked = await t.app.inject({ method: 'DELETE', url: `/api/admin/invitations/${id}`, headers: { origin: TEST_PUBLIC_URL, cookie: admin.cookie } });
      expect(revoked.statusCode).toBe(200);
      const after = await t.app.inject({ method: 'GET', url: '/api/admin/invitations', headers: { cookie: admin.cookie } });
      expect(after.json<{ items: { id: string }[] }>().items.map((item) => item.id)).not.toContain(id);
      expect((await accept(revokedToken)).statusCode).toBe(400);
      expect(await roleOf(t, revokedEmail)).toBeUndefined();
      const audit = await t.database.db.selectFrom('audit_log').select(['action', 'subject']).where('subject', '=', revokedEmail).orderBy('id').execute();
      expect(audit.map((entry) => entry.action)).toEqual(['invitation.create', 'invitation.revoke']);
    });

    it('only the owner invites an administrator', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/invitations',
        headers: { origin: TEST_PUBLIC_URL, cookie: admin.cookie },
        payload: { email: uniqueEmail(), role: 'administrator' },
      });
      expect(response.statusCode).toBe(403);
    });
  });
});

describe('the owner (issue 44)', () => {
  it('is the first account of a fresh site; the next is an author', async () => {
    const t = await createTestApp({}, { withoutOwner: true });
    try {
      const [first] = [await signUpUser(t.app)];
      const second = await signUpUser(t.app);
      expect(await roleOf(t, first!.email)).toBe('owner');
      expect(await roleOf(t, second.email)).toBe('author');
    } finally {
      await t.close();
    }
  });

  it('the owner sees the notice text and may hand the site over from /admin (audit-logged)', async () => {
    const t = await createTestApp({}, { withoutOwner: true });
    try {
      const owner = await signUpUser(t.app);
      const next = await signUpUser(t.app);
      const access = await t.app.inject({ method: 'GET', url: '/api/access', headers: { cookie: owner.cookie } });
      expect(access.json()).toMatchObject({ role: 'owner' });
      const handed = await t.app.inject({ method: 'POST', url: '/api/admin/ownership', headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie }, payload: { email: next.email } });
      expect(handed.statusCode, handed.body).toBe(200);
      expect(await roleOf(t, next.email)).toBe('owner');
      expect(await roleOf(t, owner.email)).toBe('administrator');
      const audit = await t.database.db.selectFrom('audit_log').select(['action', 'actor_email', 'subject']).where('action', '=', 'ownership.transfer').execute();
      expect(audit).toEqual([{ action: 'ownership.transfer', actor_email: owner.email, subject: next.email }]);
      // An administrator may not hand it over (the 404 of a page that does not exist).
      const again = await t.app.inject({ method: 'POST', url: '/api/admin/ownership', headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie }, payload: { email: owner.email } });
      expect(again.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('a fresh invitee (issue 56)', () => {
  it('is confirmed by the invitation link: no “Confirm your e-mail” mail, and the password signs in at once', async () => {
    const t = await createTestApp({ AUTH_REQUIRE_EMAIL_VERIFICATION: 'true' });
    try {
      const token = 'an invitation token of this test';
      const email = uniqueEmail('fresh');
      await t.database.db
        .insertInto('invitations')
        .values({ email, role: 'contributor', token_hash: hashInvitationToken(token), invited_by: null, expires_at: new Date(Date.now() + 60_000) })
        .execute();
      const accepted = await post(t.app, '/api/invitations/accept', { token, password: 'invited password 1' });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(await mailsTo(t, email)).toEqual([]);
      const account = await t.database.db.selectFrom('user').select(['emailVerified', 'role']).where('email', '=', email).executeTakeFirstOrThrow();
      expect(account).toEqual({ emailVerified: true, role: 'contributor' });
      const signedIn = await post(t.app, '/api/auth/sign-in/email', { email, password: 'invited password 1' });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(await sessionEmail(t.app, signedIn.cookie)).toBe(email);
    } finally {
      await t.close();
    }
  });
});
