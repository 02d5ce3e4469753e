import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Registration } from '../../shared/site-settings-schema.js';
import { get, post, sessionEmail } from '../testing/auth-test-kit.js';
import { useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, uniqueEmail, type TestUser } from '../testing/test-users.js';
import { TEST_PUBLIC_URL } from '../testing/test-app.js';

/**
 * A social provider's sign-up (issue 44: "every way an account can be created ... social
 * providers") through Better Auth's own sign-in and callback routes, with GitHub's token and user
 * endpoints answered here: GitHub is the one part of the path that is not ours.
 */
describe('a social provider’s sign-up keeps to the site’s registration', () => {
  const t = useTestApp({ GITHUB_CLIENT_ID: 'github-id', GITHUB_CLIENT_SECRET: 'github-secret' });
  let admin: TestUser;
  /** The address GitHub says its user has, verified. */
  let githubEmail = '';
  let githubId = 1000;

  beforeAll(async () => {
    admin = await signUpUser(t.app);
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', admin.id).execute();
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith('https://github.com/login/oauth/access_token')) return Response.json({ access_token: `gho_${githubId}`, token_type: 'bearer', scope: 'read:user,user:email' });
      if (url === 'https://api.github.com/user') return Response.json({ id: githubId, login: `octo${githubId}`, name: 'Octo', email: githubEmail, avatar_url: '' });
      if (url === 'https://api.github.com/user/emails') return Response.json([{ email: githubEmail, primary: true, verified: true, visibility: 'public' }]);
      return realFetch(input, init);
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t.app.siteSettings.save({ ...(await t.app.siteSettings.get()), registration: 'open' });
  });

  const setRegistration = async (registration: Registration) => t.app.siteSettings.save({ ...(await t.app.siteSettings.get()), registration });

  /** Starts GitHub's sign-in as the page does, then comes back to the callback as GitHub would send the browser. */
  async function signInWithGithub(email: string) {
    githubEmail = email;
    githubId += 1;
    const start = await post(t.app, '/api/auth/sign-in/social', { provider: 'github', callbackURL: '/auth', errorCallbackURL: '/auth' });
    expect(start.statusCode, start.body).toBe(200);
    const state = new URL(start.json<{ url: string }>().url).searchParams.get('state')!;
    const cookies = [start.headers['set-cookie'] ?? []].flat().map((cookie) => cookie.split(';')[0]).join('; ');
    const callback = await get(t.app, `/api/auth/callback/github?code=the-code&state=${encodeURIComponent(state)}`, { cookie: cookies });
    return { callback, location: String(callback.headers.location ?? '') };
  }

  const roleOf = async (email: string) => (await t.database.db.selectFrom('user').select('role').where('email', '=', email).executeTakeFirst())?.role;

  it('open: a new address becomes an account and is signed in', async () => {
    await setRegistration('open');
    const email = uniqueEmail('github-open');
    const { callback, location } = await signInWithGithub(email);
    expect(callback.statusCode).toBe(302);
    expect(location).not.toContain('error');
    expect(await sessionEmail(t.app, callback.cookie)).toBe(email);
    expect(await roleOf(email)).toBe('author');
  });

  it.each([
    ['closed', 'REGISTRATION_CLOSED'],
    ['invitation', 'REGISTRATION_BY_INVITATION'],
  ] as const)('%s: a new address makes no account, and comes back to /auth with the code the page puts in words', async (mode, code) => {
    await setRegistration(mode);
    const email = uniqueEmail(`github-${mode}`);
    const { callback, location } = await signInWithGithub(email);
    expect(callback.statusCode).toBe(302);
    expect(new URL(location, TEST_PUBLIC_URL).searchParams.get('error')).toBe(code);
    expect(await sessionEmail(t.app, callback.cookie)).toBeNull();
    expect(await roleOf(email)).toBeUndefined();
  });

  // Only a token this site mailed proves the address to it (issue 56): GitHub's word that it is verified does not spend an invitation.
  it('invitation: an invited address signing up through GitHub is an ordinary sign-up; the invitation stays pending', async () => {
    await setRegistration('invitation');
    const email = uniqueEmail('github-invited');
    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/admin/invitations',
      headers: { origin: TEST_PUBLIC_URL, cookie: admin.cookie },
      remoteAddress: randomIp(),
      payload: { email, role: 'contributor' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { callback, location } = await signInWithGithub(email);
    expect(new URL(location, TEST_PUBLIC_URL).searchParams.get('error')).toBe('REGISTRATION_BY_INVITATION');
    expect(await sessionEmail(t.app, callback.cookie)).toBeNull();
    expect(await roleOf(email)).toBeUndefined();
    const pending = await t.database.db.selectFrom('invitations').select('accepted_at').where('email', '=', email).executeTakeFirstOrThrow();
    expect(pending.accepted_at).toBeNull();
  });
});
