import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages.js';
import type { Registration } from '../../shared/site-settings-schema.js';
import { codeOf, get, linkParts, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';
import { createTestApp, TEST_OWNER_EMAIL, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, uniqueEmail, type TestUser } from '../testing/test-users.js';
import { applyOwnerEmail } from '../core/ownership.js';

/** The seat is never empty and never taken (issue 56). */

const roleOf = async (t: TestApp, email: string) =>
  (await t.database.db.selectFrom('user').select('role').where('email', '=', email).executeTakeFirst())?.role;
const owners = async (t: TestApp) => (await t.database.db.selectFrom('user').select('email').where('role', '=', 'owner').execute()).map((row) => row.email);
const setRegistration = async (t: TestApp, registration: Registration) => t.app.siteSettings.save({ ...(await t.app.siteSettings.get()), registration });
const asUser = (t: TestApp, user: TestUser, method: 'PUT' | 'DELETE' | 'POST', url: string, payload: object) =>
  t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, remoteAddress: randomIp(), payload });
const signUpByCode = async (t: TestApp, email: string) => {
  expect((await post(t.app, '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).statusCode).toBe(200);
  const code = codeOf((await waitForMail(t, email, /sign-in code/)).text);
  return post(t.app, '/api/auth/sign-in/email-otp', { email, otp: code });
};
const signInByLink = async (t: TestApp, email: string) => {
  expect((await post(t.app, '/api/auth/sign-in/magic-link', { email })).statusCode).toBe(200);
  const { token } = linkParts((await waitForMail(t, email, /sign-in link/)).links[0]!);
  return get(t.app, `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
};

describe('the owner leaves the seat only by handing it over', () => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp({}, { withoutOwner: true });
    owner = await signUpUser(t.app);
    admin = await signUpUser(t.app);
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', admin.id).execute();
  });
  afterAll(() => t.close());

  it('DELETE /api/account by the owner is refused in words naming the hand-over; nothing is deleted', async () => {
    expect(await roleOf(t, owner.email)).toBe('owner');
    const response = await t.app.inject({ method: 'DELETE', url: '/api/account', headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie }, payload: { password: owner.password } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'OWNER_HANDS_OVER_FIRST', message: messages.ownerHandsOverFirst });
    expect(messages.ownerHandsOverFirst).toContain('Hand over ownership');
    expect(messages.ownerHandsOverFirst).toContain('npm run owner -- <e-mail>');
    expect(await roleOf(t, owner.email)).toBe('owner');
    expect(await sessionEmail(t.app, owner.cookie)).toBe(owner.email);
  });

  it('no People action changes the owner’s role, suspends or deletes the owner; the answer names the hand-over', async () => {
    for (const [actor, method, url, payload] of [
      [admin, 'PUT', `/api/admin/people/${owner.id}/role`, { role: 'reader' }],
      [owner, 'PUT', `/api/admin/people/${owner.id}/role`, { role: 'administrator' }],
      [admin, 'PUT', `/api/admin/people/${owner.id}/suspension`, { suspended: true }],
      [admin, 'DELETE', `/api/admin/people/${owner.id}`, { blogs: 'remove' }],
    ] as const) {
      const response = await asUser(t, actor, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json<{ message: string }>().message).toBe(messages.ownerChangedByHandOverOnly);
    }
    expect(await owners(t)).toEqual([owner.email]);
  });

  it('handed over, the former owner (now an administrator) may delete their account; the seat stays filled', async () => {
    expect((await asUser(t, owner, 'POST', '/api/admin/ownership', { email: admin.email })).statusCode).toBe(200);
    const response = await t.app.inject({ method: 'DELETE', url: '/api/account', headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie }, payload: { password: owner.password } });
    expect(response.statusCode, response.body).toBe(204);
    expect(await owners(t)).toEqual([admin.email]);
  });
});

describe('nobody becomes owner by signing up on a site that has had one', () => {
  it('the first account takes the seat (logged); with its row gone, sign-ups get no seat, and a closed site refuses them', async () => {
    const t = await createTestApp({}, { withoutOwner: true });
    try {
      const first = await signUpUser(t.app);
      expect(await owners(t)).toEqual([first.email]);
      const claim = await t.database.db.selectFrom('audit_log').select(['action', 'subject']).where('action', '=', 'ownership.claim').execute();
      expect(claim).toEqual([{ action: 'ownership.claim', subject: first.email }]);

      // The owner's row disappears (the app no longer lets it, the database still could): the site is empty again.
      await t.database.db.deleteFrom('user').execute();
      await setRegistration(t, 'closed');
      const refused = await signUpByCode(t, uniqueEmail('after'));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'REGISTRATION_CLOSED' });

      await setRegistration(t, 'open');
      const next = await signUpByCode(t, uniqueEmail('next'));
      expect(next.statusCode, next.body).toBe(200);
      expect(await owners(t)).toEqual([]);
      const byPassword = await signUpUser(t.app);
      expect(await roleOf(t, byPassword.email)).toBe('author');
      expect(await owners(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a race of first sign-ups makes exactly one owner; the others get the default role', async () => {
    const t = await createTestApp({}, { withoutOwner: true });
    try {
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => signUpUser(t.app)));
      const made = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      expect(made.length, JSON.stringify(results.filter((result) => result.status === 'rejected'))).toBe(6);
      const roles = await Promise.all(made.map((user) => roleOf(t, user.email)));
      expect(roles.filter((role) => role === 'owner')).toHaveLength(1);
      expect(roles.filter((role) => role === 'author')).toHaveLength(5);
      // The seat taken, a closed site refuses the next one.
      await setRegistration(t, 'closed');
      expect((await signUpByCode(t, uniqueEmail('late'))).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});

describe('OWNER_EMAIL takes the seat only for a proven address', () => {
  const boss = uniqueEmail('boss');

  it('the issue’s attack: a stranger signs up as OWNER_EMAIL; nothing changes until the boss confirms, and then the stranger’s password is gone', async () => {
    const t = await createTestApp({ OWNER_EMAIL: boss, AUTH_REQUIRE_EMAIL_VERIFICATION: 'true' });
    try {
      await setRegistration(t, 'closed');
      const closed = await post(t.app, '/api/auth/sign-up/email', { email: boss, password: 'stranger password 1', name: 'x' });
      expect(closed.statusCode).toBe(403);
      expect(closed.json()).toMatchObject({ code: 'REGISTRATION_CLOSED' });
      expect(await roleOf(t, boss)).toBeUndefined();

      await setRegistration(t, 'open');
      expect((await post(t.app, '/api/auth/sign-up/email', { email: boss, password: 'stranger password 1', name: 'x' })).statusCode).toBe(200);
      expect(await roleOf(t, boss)).toBe('author');
      expect(await owners(t)).toEqual([TEST_OWNER_EMAIL]);

      // The real boss presses the link the stranger's sign-up mailed.
      const { token } = linkParts((await waitForMail(t, boss, /confirm/i)).links[0]!);
      const confirmed = await get(t.app, `/api/auth/verify-email?token=${encodeURIComponent(token)}`);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(await sessionEmail(t.app, confirmed.cookie)).toBe(boss);
      expect(await owners(t)).toEqual([boss]);
      expect(await roleOf(t, TEST_OWNER_EMAIL)).toBe('administrator');
      expect((await post(t.app, '/api/auth/sign-in/email', { email: boss, password: 'stranger password 1' })).statusCode).toBe(401);
      const audit = await t.database.db.selectFrom('audit_log').select(['action', 'actor_email', 'subject', 'after']).where('action', '=', 'ownership.transfer').execute();
      expect(audit).toEqual([{ action: 'ownership.transfer', actor_email: null, subject: boss, after: expect.objectContaining({ owner: boss, by: 'OWNER_EMAIL' }) }]);
    } finally {
      await t.close();
    }
  });

  it('a signed-in stranger as OWNER_EMAIL, even once confirmed, loses the password and sessions when the boss signs in by link', async () => {
    const t = await createTestApp({ OWNER_EMAIL: boss });
    try {
      const stranger = await signUpUser(t.app, { email: boss });
      expect(await roleOf(t, boss)).toBe('author');
      // Confirmed some other way before (say, OWNER_EMAIL was set later): the link finds a verified account.
      await t.database.db.updateTable('user').set({ emailVerified: true }).where('id', '=', stranger.id).execute();
      expect(await owners(t)).toEqual([TEST_OWNER_EMAIL]);

      const signedIn = await signInByLink(t, boss);
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(await owners(t)).toEqual([boss]);
      expect(await sessionEmail(t.app, signedIn.cookie)).toBe(boss);
      expect(await sessionEmail(t.app, stranger.cookie)).toBeNull();
      expect((await post(t.app, '/api/auth/sign-in/email', { email: boss, password: stranger.password })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('signing up by e-mail code proves the address: the seat, whatever the registration setting', async () => {
    const t = await createTestApp({ OWNER_EMAIL: boss.toUpperCase() });
    try {
      await setRegistration(t, 'closed');
      const response = await signUpByCode(t, boss);
      expect(response.statusCode, response.body).toBe(200);
      expect(await owners(t)).toEqual([boss]);
      expect(await roleOf(t, TEST_OWNER_EMAIL)).toBe('administrator');
      // Nobody else gets a seat by signing up first.
      expect((await signUpByCode(t, uniqueEmail())).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });

  it('at start-up, only a confirmed account takes the seat, without the ways in it had', async () => {
    const t = await createTestApp({});
    try {
      const account = await signUpUser(t.app, { email: boss });
      expect(await applyOwnerEmail(t.database.db, boss)).toBe('unconfirmed');
      expect(await owners(t)).toEqual([TEST_OWNER_EMAIL]);

      await t.database.db.updateTable('user').set({ emailVerified: true }).where('id', '=', account.id).execute();
      expect(await applyOwnerEmail(t.database.db, boss)).toBe('seated');
      expect(await owners(t)).toEqual([boss]);
      expect(await sessionEmail(t.app, account.cookie)).toBeNull();
      expect((await post(t.app, '/api/auth/sign-in/email', { email: boss, password: account.password })).statusCode).toBe(401);
      expect(await applyOwnerEmail(t.database.db, boss)).toBe('owner');
    } finally {
      await t.close();
    }
  });
});
