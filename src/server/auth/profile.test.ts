import { describe, expect, it } from 'vitest';
import { authorPageSchema } from '../../shared/blog-schema.js';
import { profileTexts, type ProfileRequest } from '../../shared/profile-schema.js';
import * as profilesMigration from '../db/migrations/2026-11-26-01-profiles-and-federation.js';
import { htmlText } from '../testing/html-text.js';
import { TEST_PUBLIC_URL, useTestApp, type TestApp } from '../testing/test-app.js';
import { authHeaders, randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { PROFILE_UPDATE_RATE_LIMIT } from './account.routes.js';

function profileApi(t: TestApp) {
  const send = (method: 'GET' | 'PUT', user: Pick<TestUser, 'cookie'> | null, body?: unknown) =>
    t.app.inject({
      method,
      url: '/api/account/profile',
      headers: { ...(body === undefined ? { origin: authHeaders.origin } : authHeaders), ...(user ? { cookie: user.cookie } : {}) },
      remoteAddress: randomIp(),
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  return {
    get: (user: Pick<TestUser, 'cookie'> | null) => send('GET', user),
    put: (user: Pick<TestUser, 'cookie'> | null, body: ProfileRequest | Record<string, unknown>) => send('PUT', user, body),
  };
}

const handleOf = async (t: TestApp, userId: string) =>
  (await t.database.db.selectFrom('user').select('handle').where('id', '=', userId).executeTakeFirstOrThrow()).handle;

describe('profiles: the handle every account gets from its e-mail', () => {
  const t = useTestApp();

  it('makes the handle from the e-mail\'s local part, lowercased, other characters as _, and adds _2, _3 when it is taken', async () => {
    const bob = await signUpUser(t.app, { email: 'bob@example.com' });
    const otherBob = await signUpUser(t.app, { email: 'Bob@elsewhere.example' });
    const thirdBob = await signUpUser(t.app, { email: 'bob@third.example' });
    const dotted = await signUpUser(t.app, { email: 'Mary.Jane+blog@example.com' });
    const short = await signUpUser(t.app, { email: 'jo@example.com' });
    expect(await handleOf(t, bob.id)).toBe('bob');
    expect(await handleOf(t, otherBob.id)).toBe('bob_2');
    expect(await handleOf(t, thirdBob.id)).toBe('bob_3');
    expect(await handleOf(t, dotted.id)).toBe('mary_jane_blog');
    expect(await handleOf(t, short.id)).toBe('jo_');

    const api = profileApi(t);
    const response = await api.get(otherBob);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({ handle: 'bob_2', displayName: null, bio: null, handleFromEmail: true });
  });

  it('takes no handle from the sign-up form (it is chosen in Settings), and never answers it there', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: authHeaders,
      remoteAddress: randomIp(),
      payload: { email: 'carol@example.com', password: 'correct horse battery', name: 'carol', handle: 'chosen_at_signup' },
    });
    expect(response.statusCode).toBe(200);
    const { user } = response.json() as { user: Record<string, unknown> };
    expect(user).not.toHaveProperty('handle');
    expect(await handleOf(t, user.id as string)).toBe('carol');
  });
});

describe('the profile API', () => {
  const t = useTestApp();
  const api = profileApi(t);

  it('saves the handle (trimmed and lowercased), the display name on one line and the bio with its line breaks', async () => {
    const user = await signUpUser(t.app);
    const saved = await api.put(user, { handle: '  Ada_Lovelace ', displayName: '  Ada \n  Lovelace ', bio: 'Countess.\r\nWrites about engines.' });
    expect(saved.statusCode).toBe(200);
    const expected = { handle: 'ada_lovelace', displayName: 'Ada Lovelace', bio: 'Countess.\nWrites about engines.', handleFromEmail: false };
    expect(saved.json()).toEqual(expected);
    expect((await api.get(user)).json()).toEqual(expected);

    // Empty, null or missing: no display name, no bio.
    expect((await api.put(user, { handle: 'ada_lovelace', displayName: '   ', bio: null })).json()).toEqual({ ...expected, displayName: null, bio: null });
    expect((await api.put(user, { handle: 'ada_lovelace', displayName: 'Ada' })).json()).toEqual({ ...expected, displayName: 'Ada', bio: null });
  });

  it.each([
    ['a handle too short', { handle: 'ab' }, profileTexts.handleTooShort],
    ['an empty handle', { handle: '   ' }, profileTexts.handleMissing],
    ['no handle', {}, profileTexts.handleMissing],
    ['a handle with a hyphen', { handle: 'bad-handle' }, profileTexts.handleCharacters],
    ['a handle with a space inside', { handle: 'bad handle' }, profileTexts.handleCharacters],
    ['a handle with a letter outside a–z', { handle: 'zoë_writes' }, profileTexts.handleCharacters],
    ['a handle too long', { handle: 'a'.repeat(31) }, profileTexts.handleTooLong],
    ['a display name too long', { handle: 'fine_handle', displayName: 'n'.repeat(81) }, profileTexts.displayNameTooLong],
    ['a bio too long', { handle: 'fine_handle', bio: 'b'.repeat(501) }, profileTexts.bioTooLong],
    ['a bio that is not text', { handle: 'fine_handle', bio: 42 }, undefined],
  ])('refuses %s with a 400 and its message, and saves nothing', async (_name, body, message) => {
    const user = await signUpUser(t.app);
    const before = (await api.get(user)).json();
    const response = await api.put(user, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: message ?? expect.any(String) });
    expect((await api.get(user)).json()).toEqual(before);
  });

  it('takes the longest handle and bio the rules allow', async () => {
    const user = await signUpUser(t.app);
    const handle = `x${'9'.repeat(28)}_`;
    const response = await api.put(user, { handle, displayName: 'n'.repeat(80), bio: 'b'.repeat(500) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ handle, displayName: 'n'.repeat(80), bio: 'b'.repeat(500) });
  });

  it('answers 409 for a handle another account has, in any case, and keeps both as they were', async () => {
    const owner = await signUpUser(t.app);
    const other = await signUpUser(t.app);
    expect((await api.put(owner, { handle: 'taken_one' })).statusCode).toBe(200);
    const otherBefore = (await api.get(other)).json();

    for (const handle of ['taken_one', ' TAKEN_ONE ']) {
      const response = await api.put(other, { handle, displayName: 'Someone' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: 'HANDLE_TAKEN', message: profileTexts.handleTaken });
    }
    expect((await api.get(other)).json()).toEqual(otherBefore);
    expect(await handleOf(t, owner.id)).toBe('taken_one');
    // Saving one's own handle again is no conflict.
    expect((await api.put(owner, { handle: 'taken_one', bio: 'Still me.' })).statusCode).toBe(200);
  });

  it('needs a session: 401 with the error shape, before the body is judged', async () => {
    for (const response of [await api.get(null), await api.put(null, { handle: 'nobody_here' }), await api.put(null, { handle: '!' })]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) });
    }
    expect(await t.database.db.selectFrom('user').select('id').where('handle', '=', 'nobody_here').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a NUL character in any field at the edge', async () => {
    const user = await signUpUser(t.app);
    for (const body of [{ handle: 'a\u0000bc' }, { handle: 'fine_handle', displayName: 'a\u0000b' }, { handle: 'fine_handle', bio: 'a\u0000b' }]) {
      const response = await api.put(user, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'BAD_REQUEST' });
    }
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/account/profile'] ?? {}).sort()).toEqual(['get', 'put']);
  });
});

describe('the profile rate limit', () => {
  const t = useTestApp();

  it(`refuses a save past ${PROFILE_UPDATE_RATE_LIMIT.max} in its window with a 429`, async () => {
    const user = await signUpUser(t.app);
    const api = profileApi(t);
    for (let i = 0; i < PROFILE_UPDATE_RATE_LIMIT.max; i++) {
      expect((await api.put(user, { handle: `limited_${i}` })).statusCode).toBe(200);
    }
    const refused = await api.put(user, { handle: 'one_too_many' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS' });
    expect(await handleOf(t, user.id)).toBe(`limited_${PROFILE_UPDATE_RATE_LIMIT.max - 1}`);
  });
});

describe('the author page and the profile', () => {
  // The response cache on: a saved profile must reach anonymous readers of the author page at once.
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' });
  const authorPage = async (userId: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/authors/${userId}/blogs`, remoteAddress: randomIp() });
    expect(response.statusCode).toBe(200);
    return authorPageSchema.parse(response.json());
  };

  it('shows the handle, display name and bio, and the e-mail only where it was before', async () => {
    const user = await signUpUser(t.app, { email: 'grace.hopper@example.com' });
    const before = await authorPage(user.id);
    expect(before.author).toEqual({ id: user.id, name: user.email, email: user.email, handle: 'grace_hopper', displayName: null, bio: null });
    // Anonymous and cacheable: the next read comes from the response cache.
    expect((await authorPage(user.id)).author.handle).toBe('grace_hopper');

    const api = profileApi(t);
    const put = await api.put(user, { handle: 'amazing_grace', displayName: 'Grace <b>Hopper</b>', bio: 'Compilers & <script>bugs</script>.' });
    expect(put.statusCode).toBe(200);
    const after = await authorPage(user.id);
    expect(after.author).toEqual({
      id: user.id,
      // The site shows authors by e-mail (the default of 'Show authors by').
      name: user.email,
      email: user.email,
      handle: 'amazing_grace',
      displayName: 'Grace <b>Hopper</b>',
      bio: 'Compilers & <script>bugs</script>.',
    });
    const { email: _email, name: _name, ...profile } = after.author;
    expect(JSON.stringify(profile)).not.toContain('grace.hopper');
  });
});

describe('the author page as the server renders it', () => {
  // The response cache on, as in production: the page is kept until the profile changes.
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' }, { pages: 'vite' });
  const page = async (userId: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/author?id=${userId}` });
    expect(response.statusCode).toBe(200);
    return response;
  };

  // The first page rendered from source has Vite transform the page's whole module graph: on a busy machine, over 30 s.
  it('shows the display name (or the handle), @handle and the bio as escaped text, fresh after every save', { timeout: 120_000 }, async () => {
    const user = await signUpUser(t.app, { email: 'ada@example.com' });
    const first = await page(user.id);
    expect(htmlText(first.body)).toContain(`Blogs by ${user.email}`);
    expect(htmlText(first.body)).toMatch(/ada\s*@ada/);
    expect((await page(user.id)).headers['x-cache']).toBe('hit');

    const bio = 'Line one <img src=x onerror=alert(1)>\nLine two & more';
    expect((await profileApi(t).put(user, { handle: 'countess', displayName: 'Ada <i>Lovelace</i>', bio })).statusCode).toBe(200);
    const after = await page(user.id);
    const text = htmlText(after.body);
    expect(text).toContain('Ada <i>Lovelace</i>');
    // The fediverse address a reader on another site follows.
    expect(text).toContain(`@countess@${new URL(TEST_PUBLIC_URL).host}`);
    expect(text).toContain(bio);
    expect(after.body).not.toContain('<img src=x');
    expect(after.body).not.toContain('<i>Lovelace</i>');
    expect(after.headers['x-cache']).toBe('miss');
    expect(text).toContain(`Blogs by ${user.email}`);
  });
});

describe('the migration gives every existing account a handle', () => {
  const t = useTestApp();

  it('fills handles from the e-mails, oldest account first, unique and within the rule', async () => {
    const db = t.database.db;
    // The database as it was before 2026-11-26-01, with accounts in it.
    await profilesMigration.down(db);
    const emails = ['bob@one.example', 'Bob@two.example', 'x@three.example', 'Very.Long.Local.Part.Of.An.Address@example.com', 'déjà@vu.example'];
    for (const [index, email] of emails.entries()) {
      await db
        .insertInto('user')
        .values({ id: `old-${index}`, name: email, email, emailVerified: true, createdAt: new Date(Date.UTC(2026, 0, 1 + index)), updatedAt: new Date() })
        .execute();
    }

    await profilesMigration.up(db);
    const rows = await db.selectFrom('user').select(['id', 'handle', 'display_name', 'bio']).where('id', 'like', 'old-%').orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'old-0', handle: 'bob', display_name: null, bio: null },
      { id: 'old-1', handle: 'bob_2', display_name: null, bio: null },
      { id: 'old-2', handle: 'x__', display_name: null, bio: null },
      { id: 'old-3', handle: 'very_long_local_part_of_', display_name: null, bio: null },
      { id: 'old-4', handle: 'd_j_', display_name: null, bio: null },
    ]);
    // And a new account after it: the trigger's turn.
    const later = await signUpUser(t.app, { email: 'bob@four.example' });
    expect(await handleOf(t, later.id)).toBe('bob_3');
  });
});
