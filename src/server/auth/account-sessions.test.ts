import { describe, expect, it } from 'vitest';
import type { AccountSession } from '../../shared/account-schema.js';
import { call } from '../testing/auth-test-kit.js';
import { useTestApp } from '../testing/test-app.js';
import { authHeaders, sessionCookie, signUpUser, type TestUser } from '../testing/test-users.js';
import { describeUserAgent, maskAddress } from './account-sessions.js';
import { AUTH_ADDRESS_LIMITS } from './auth-guards.js';
import { NOT_ME_SPENT } from './new-browser.js';

const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('what Settings says of a session', () => {
  it('names the browser and system, and drops the address’s last part', () => {
    expect(describeUserAgent(FIREFOX)).toBe('Firefox 133 on Linux');
    expect(describeUserAgent(SAFARI)).toBe('Safari 17 on iOS');
    expect(describeUserAgent(null)).toBe('An unknown browser');
    expect(maskAddress('203.0.113.77')).toBe('203.0.113.*');
    expect(maskAddress('::ffff:198.51.100.9')).toBe('198.51.100.*');
    expect(maskAddress('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:85a3:0::*');
    expect(maskAddress(null)).toBeNull();
  });
});

describe('the sessions you can see and end', () => {
  const t = useTestApp();

  /** Signs `user` in again from another browser and address: a second session. */
  async function signInFrom(user: TestUser, userAgent: string, ip: string): Promise<string> {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: { ...authHeaders, 'user-agent': userAgent }, remoteAddress: ip, payload: { email: user.email, password: user.password } });
    expect(response.statusCode, response.body).toBe(200);
    return sessionCookie(response.headers['set-cookie']);
  }
  const sessionsOf = async (cookie: string) => {
    const response = await call(t.app, 'GET', '/api/account/sessions', undefined, { cookie });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    return response.json<{ items: AccountSession[] }>().items;
  };
  const signedIn = async (cookie: string) => (await call(t.app, 'GET', '/api/account', undefined, { cookie })).statusCode === 200;

  it('lists every session of the account, this one marked, with no token; ends one, and only the owner’s', async () => {
    const user = await signUpUser(t.app);
    const firefox = await signInFrom(user, FIREFOX, '203.0.113.77');
    const sessions = await sessionsOf(user.cookie);
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    const other = sessions.find((session) => !session.current)!;
    expect(other).toMatchObject({ device: 'Firefox 133 on Linux', address: '203.0.113.*', current: false });
    expect(Date.parse(other.signedInAt)).toBeLessThanOrEqual(Date.parse(other.lastSeenAt));
    const tokens = await t.database.db.selectFrom('session').select('token').where('userId', '=', user.id).execute();
    const body = JSON.stringify(sessions);
    for (const { token } of tokens) expect(body).not.toContain(token);

    // Someone else cannot end it, nor tell it exists.
    const stranger = await signUpUser(t.app);
    expect((await call(t.app, 'DELETE', `/api/account/sessions/${other.id}`, undefined, { cookie: stranger.cookie })).statusCode).toBe(404);
    expect(await signedIn(firefox)).toBe(true);

    const ended = await call(t.app, 'DELETE', `/api/account/sessions/${other.id}`, undefined, { cookie: user.cookie });
    expect(ended.statusCode, ended.body).toBe(204);
    expect(await signedIn(firefox)).toBe(false);
    expect(await signedIn(user.cookie)).toBe(true);
    const again = await call(t.app, 'DELETE', `/api/account/sessions/${other.id}`, undefined, { cookie: user.cookie });
    expect(again.json()).toEqual({ error: 'NOT_FOUND', message: 'This session has already ended.' });
    expect((await call(t.app, 'DELETE', '/api/account/sessions/not-an-id', undefined, { cookie: user.cookie })).statusCode).toBe(404);
    expect((await call(t.app, 'GET', '/api/account/sessions')).statusCode).toBe(401);
  });

  it('ends all the others at once, and a password change ends them too, whatever the request asks', async () => {
    const user = await signUpUser(t.app);
    const [phone, laptop] = [await signInFrom(user, SAFARI, '198.51.100.9'), await signInFrom(user, FIREFOX, '203.0.113.5')];
    const ended = await call(t.app, 'POST', '/api/account/sessions/end-others', undefined, { cookie: user.cookie });
    expect(ended.json()).toEqual({ ended: 2 });
    expect([await signedIn(phone), await signedIn(laptop), await signedIn(user.cookie)]).toEqual([false, false, true]);

    const tablet = await signInFrom(user, SAFARI, '198.51.100.10');
    const changed = await call(t.app, 'POST', '/api/auth/change-password', { currentPassword: user.password, newPassword: 'another good password', revokeOtherSessions: false }, { cookie: user.cookie });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await signedIn(tablet)).toBe(false);
    expect((await sessionsOf(sessionCookie(changed.headers['set-cookie']) || user.cookie)).map((session) => session.current)).toEqual([true]);
  });

  it('keeps when each session was last used, written at most every few minutes', async () => {
    const user = await signUpUser(t.app);
    expect((await t.database.db.selectFrom('session').select('last_seen_at').where('userId', '=', user.id).executeTakeFirstOrThrow()).last_seen_at).toBeNull();
    await signedIn(user.cookie);
    await expect.poll(async () => (await t.database.db.selectFrom('session').select('last_seen_at').where('userId', '=', user.id).executeTakeFirstOrThrow()).last_seen_at).not.toBeNull();
    const first = (await t.database.db.selectFrom('session').select('last_seen_at').where('userId', '=', user.id).executeTakeFirstOrThrow()).last_seen_at!;
    await signedIn(user.cookie);
    await signedIn(user.cookie);
    expect((await t.database.db.selectFrom('session').select('last_seen_at').where('userId', '=', user.id).executeTakeFirstOrThrow()).last_seen_at).toEqual(first);
  });

  it('mails the owner about a sign-in from a browser the account has not used, once; its button signs that browser out and asks for a new password', async () => {
    const user = await signUpUser(t.app);
    const mailsTo = async (subject: RegExp) => {
      await t.settled();
      return (await t.outbox()).filter((mail) => mail.to === user.email && subject.test(mail.subject));
    };
    // The account's first browser is news to no one.
    expect(await mailsTo(/new sign-in/)).toHaveLength(0);
    const firefox = await signInFrom(user, FIREFOX, '203.0.113.77');
    const [mail] = await mailsTo(/new sign-in/);
    expect(mail!.text).toContain('Firefox 133 on Linux, from 203.0.113.*');
    // The same browser again (a newer version too) is known now.
    await signInFrom(user, FIREFOX.replaceAll('133.0', '134.0'), '203.0.113.78');
    expect(await mailsTo(/new sign-in/)).toHaveLength(1);

    const link = new URL(mail!.links.find((each) => each.includes('/not-me?'))!);
    expect(link.pathname).toBe('/not-me');
    const token = link.searchParams.get('token')!;
    const forged = await call(t.app, 'POST', '/api/account/not-me', { token: `${token.split('.')[0]}.bm90IGl0` });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ error: 'INVALID_LINK' });
    expect(await signedIn(firefox)).toBe(true);

    const notMe = await call(t.app, 'POST', '/api/account/not-me', { token });
    expect(notMe.statusCode, notMe.body).toBe(200);
    expect(notMe.json()).toEqual({ message: 'We signed that browser out of your account and sent you an e-mail with a link to choose a new password.' });
    expect(await signedIn(firefox)).toBe(false);
    expect(await signedIn(user.cookie)).toBe(true);
    expect(await resetMailsTo(user, 1)).toHaveLength(1);
  });

  /** The 'This wasn't me' token of the mail about a new browser's sign-in (the `nth`, oldest first). */
  async function notMeTokenFromMail(user: TestUser, nth: number): Promise<string> {
    await t.settled();
    const mails = (await t.outbox()).filter((mail) => mail.to === user.email && /new sign-in/.test(mail.subject));
    return new URL(mails[nth]!.links.find((each) => each.includes('/not-me?'))!).searchParams.get('token')!;
  }
  /**
   * The reset mails to `user`, once `count` of them are there: Better Auth sends a reset mail in the
   * background after its answer (`runInBackgroundOrAwait`), so the queue may not hold it yet when
   * the answer is read (a retry on a loaded run). Then whatever else was queued is settled too.
   */
  const resetMailsTo = async (user: TestUser, count: number) => {
    const resets = async () => (await t.outbox()).filter((mail) => mail.to === user.email && /reset your password/i.test(mail.subject));
    await expect.poll(async () => (await resets()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
    await t.settled();
    return resets();
  };

  it('spends the ‘This wasn’t me’ token on its first press: eleven presses, one reset mail', async () => {
    const user = await signUpUser(t.app);
    await signInFrom(user, FIREFOX, '203.0.113.80');
    const token = await notMeTokenFromMail(user, 0);
    const presses = [];
    for (let press = 0; press < 11; press += 1) presses.push(await call(t.app, 'POST', '/api/account/not-me', { token }));
    expect(presses[0]!.statusCode, presses[0]!.body).toBe(200);
    for (const again of presses.slice(1)) {
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ error: 'LINK_USED', message: NOT_ME_SPENT });
    }
    expect(await resetMailsTo(user, 1)).toHaveLength(1);
  });

  it('sends ‘This wasn’t me’ reset mail within the reset form’s limit for the address, and still signs each browser out', async () => {
    const user = await signUpUser(t.app);
    const { max } = AUTH_ADDRESS_LIMITS['password-reset']!.rule;
    // A browser the account has not used before each time: a mail, and a token, each.
    const agents = [
      FIREFOX,
      SAFARI,
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    ].slice(0, max + 2);
    expect(agents).toHaveLength(max + 2);
    const browsers = [];
    for (const [index, agent] of agents.entries()) browsers.push(await signInFrom(user, agent, `198.51.100.${index + 1}`));
    const tokens = [];
    for (let index = 0; index < agents.length; index += 1) tokens.push(await notMeTokenFromMail(user, index));
    const answers = [];
    for (const token of tokens) answers.push(await call(t.app, 'POST', '/api/account/not-me', { token }));
    expect(answers.slice(0, max).map((answer) => answer.statusCode)).toEqual(Array(max).fill(200));
    for (const refused of answers.slice(max)) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toMatch(/^We signed that browser out of your account\. Several reset e-mails/);
    }
    for (const browser of browsers) expect(await signedIn(browser)).toBe(false);
    expect(await resetMailsTo(user, max)).toHaveLength(max);
  });
});

describe('Better Auth’s session endpoints', () => {
  const t = useTestApp();

  it('answer no session’s token: list-sessions is closed, get-session leaves it out', async () => {
    const user = await signUpUser(t.app);
    const listed = await call(t.app, 'GET', '/api/auth/list-sessions', undefined, { cookie: user.cookie });
    expect(listed.statusCode).toBe(404);
    expect(listed.json()).toMatchObject({ error: 'NOT_FOUND' });
    for (const spelling of ['/api/auth/list-sessions/', '/api/auth/x/../list-sessions']) {
      expect((await call(t.app, 'GET', spelling, undefined, { cookie: user.cookie })).statusCode).toBe(404);
    }
    const session = await call(t.app, 'GET', '/api/auth/get-session', undefined, { cookie: user.cookie });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { id: user.id }, session: { userId: user.id } });
    expect(session.json<{ session: object }>().session).not.toHaveProperty('token');
    const { token } = await t.database.db.selectFrom('session').select('token').where('userId', '=', user.id).executeTakeFirstOrThrow();
    for (const answer of [session, await call(t.app, 'GET', '/api/auth/list-accounts', undefined, { cookie: user.cookie })]) {
      expect(answer.body).not.toContain(token);
    }
  });
});
