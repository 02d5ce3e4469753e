import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outgoingRequestGuard } from '../http/public-address.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers, type TestUser } from '../testing/test-users.js';
import { fetchClientInfo, readClientPage } from './client-info.js';

/**
 * IndieAuth (issue 60), as an app written from the IndieAuth Living Standard sees it: discovery,
 * authorization with PKCE (S256), the consent as the signed-in author, the code exchanged for a
 * token, introspection and revocation; and Settings' 'Apps'.
 */
const CLIENT_ID = 'http://127.0.0.1:9/app/';
const REDIRECT_URI = 'http://127.0.0.1:9/app/callback';

/** A client of the specification: a verifier, its S256 challenge, a state. */
function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url'), state: randomBytes(8).toString('hex') };
}
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('IndieAuth', () => {
  const t = useTestApp();
  const users = useSignedUpUsers(t, ['author', 'other']);
  let metadata: Record<string, unknown>;

  beforeAll(async () => {
    metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
  });

  const authorizationQuery = (challenge: string, state: string, extra: Record<string, string> = {}) =>
    form({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state, code_challenge: challenge, code_challenge_method: 'S256', scope: 'profile create update', me: TEST_PUBLIC_URL + '/', ...extra });
  const asUser = (user: TestUser) => ({ origin: TEST_PUBLIC_URL, cookie: user.cookie });
  const post = (url: string, body: Record<string, string>, headers: Record<string, string> = {}, ip = randomIp()) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: form(body), remoteAddress: ip });

  /** The whole dance: GET the consent, Allow (or Deny), and the redirect's parameters. */
  async function authorize(user: TestUser, allow = true, extra: Record<string, string> = {}) {
    const { verifier, challenge, state } = pkce();
    const query = authorizationQuery(challenge, state, extra);
    const consent = await t.app.inject({ method: 'GET', url: `/api/indieauth/authorization?${query}`, headers: asUser(user) });
    expect(consent.statusCode, consent.body).toBe(200);
    const decided = await t.app.inject({ method: 'POST', url: '/api/indieauth/authorization', headers: asUser(user), payload: { ...Object.fromEntries(new URLSearchParams(query)), allow } });
    expect(decided.statusCode, decided.body).toBe(200);
    const location = new URL(decided.json<{ location: string }>().location);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('iss')).toBe(metadata.issuer);
    return { consent: consent.json(), code: location.searchParams.get('code'), error: location.searchParams.get('error'), verifier };
  }
  const exchange = (code: string, verifier: string, ip?: string) =>
    post(new URL(String(metadata.token_endpoint)).pathname, { grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier }, {}, ip);

  it('announces its metadata: endpoints, S256 only, the iss parameter', () => {
    expect(metadata).toMatchObject({
      issuer: `${TEST_PUBLIC_URL}/`,
      authorization_endpoint: `${TEST_PUBLIC_URL}/indieauth/authorize`,
      token_endpoint: `${TEST_PUBLIC_URL}/indieauth/token`,
      revocation_endpoint: `${TEST_PUBLIC_URL}/indieauth/revoke`,
      introspection_endpoint: `${TEST_PUBLIC_URL}/indieauth/introspect`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('names the app by its client_id host when its page may not be fetched (a private address), with the scopes asked', async () => {
    const { consent } = await authorize(users.author, false);
    expect(consent).toEqual({ client: { id: CLIENT_ID, name: '127.0.0.1:9' }, redirectUri: REDIRECT_URI, me: `${TEST_PUBLIC_URL}/author?id=${users.author.id}`, scopes: ['profile', 'create', 'update'] });
  });

  it('Deny sends the app access_denied with its state', async () => {
    const denied = await authorize(users.author, false);
    expect(denied).toMatchObject({ code: null, error: 'access_denied' });
  });

  it('refuses a request without PKCE or with plain, without state, or returning elsewhere; signed out it is 401', async () => {
    const { challenge, state } = pkce();
    const refused = async (extra: Record<string, string>) =>
      (await t.app.inject({ method: 'GET', url: `/api/indieauth/authorization?${authorizationQuery(challenge, state, extra)}`, headers: asUser(users.author) })).statusCode;
    expect(await refused({ code_challenge_method: 'plain' })).toBe(400);
    expect(await refused({ code_challenge: '' })).toBe(400);
    expect(await refused({ state: '' })).toBe(400);
    expect(await refused({ redirect_uri: 'https://elsewhere.example/callback' })).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/indieauth/authorization?${authorizationQuery(challenge, state)}` })).statusCode).toBe(401);
  });

  it('Allow, then the code for a token once, with the right verifier; the token introspects, lists in Apps and is revoked', async () => {
    const { code, verifier } = await authorize(users.author);
    expect(code).toBeTruthy();
    // The wrong verifier burns the code.
    const wrong = await exchange(code!, pkce().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await exchange(code!, verifier)).json()).toMatchObject({ error: 'invalid_grant' });

    const again = await authorize(users.author);
    const granted = await exchange(again.code!, again.verifier);
    expect(granted.statusCode, granted.body).toBe(200);
    const token = granted.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'profile create update', me: `${TEST_PUBLIC_URL}/author?id=${users.author.id}`, profile: { url: `${TEST_PUBLIC_URL}/author?id=${users.author.id}` } });
    expect(JSON.stringify(token)).not.toContain(users.author.email);
    expect((await exchange(again.code!, again.verifier)).json()).toMatchObject({ error: 'invalid_grant' });
    // Only hashes are stored.
    const rows = await t.database.db.selectFrom('indieauth_tokens').select(['selector', 'secret_hash']).execute();
    // The secret is base64url, so it may itself hold '_': it is all that follows the selector.
    const secret = /^ia_[0-9a-f]{24}_(.+)$/.exec(token.access_token)![1]!;
    expect(JSON.stringify(rows)).not.toContain(secret);

    const bearer = { authorization: `Bearer ${token.access_token}` };
    const introspected = await post('/indieauth/introspect', { token: token.access_token }, bearer);
    expect(introspected.json()).toMatchObject({ active: true, me: token.me, client_id: CLIENT_ID, scope: 'profile create update' });
    expect((await post('/indieauth/introspect', { token: token.access_token })).statusCode).toBe(401);

    const apps = await t.app.inject({ method: 'GET', url: '/api/account/apps', headers: asUser(users.author) });
    expect(apps.json().items).toEqual([expect.objectContaining({ clientId: CLIENT_ID, name: '127.0.0.1:9', scopes: ['profile', 'create', 'update'] })]);
    expect((await t.app.inject({ method: 'GET', url: '/api/account/apps', headers: asUser(users.other) })).json().items).toEqual([]);
    const id = apps.json().items[0].id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/account/apps/${id}`, headers: asUser(users.other) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/account/apps/${id}`, headers: asUser(users.author) })).statusCode).toBe(204);
    expect((await post('/indieauth/introspect', { token: token.access_token }, bearer)).statusCode).toBe(401);
  });

  it('revokes by the revocation endpoint (200 for any token), and redeems a profile-only code at the authorization endpoint', async () => {
    const first = await authorize(users.other);
    const token = (await exchange(first.code!, first.verifier)).json().access_token as string;
    expect((await post('/indieauth/revoke', { token })).statusCode).toBe(200);
    expect((await post('/indieauth/introspect', { token }, { authorization: `Bearer ${token}` })).statusCode).toBe(401);

    const signIn = await authorize(users.other, true, { scope: '' });
    expect((await exchange(signIn.code!, signIn.verifier)).json()).toMatchObject({ error: 'invalid_grant' });
    const profileOnly = await authorize(users.other, true, { scope: '' });
    const redeemed = await post('/indieauth/authorize', { grant_type: 'authorization_code', code: profileOnly.code!, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: profileOnly.verifier });
    expect(redeemed.json()).toEqual({ me: `${TEST_PUBLIC_URL}/author?id=${users.other.id}` });
  });

  it('limits wrong tokens per address: past ten in 15 minutes even a right one is refused', async () => {
    const ip = randomIp();
    const granted = await authorize(users.other);
    const token = (await exchange(granted.code!, granted.verifier)).json().access_token as string;
    const tries = [];
    for (let n = 0; n < 11; n++) tries.push((await post('/indieauth/introspect', { token }, { authorization: `Bearer ia_${'0'.repeat(24)}_${'x'.repeat(43)}` }, ip)).statusCode);
    expect(tries.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(tries[10]).toBe(429);
    expect((await post('/indieauth/introspect', { token }, { authorization: `Bearer ${token}` }, ip)).statusCode).toBe(429);
    expect((await post('/indieauth/introspect', { token }, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
  });
});

describe('an app’s page', () => {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<html><head><title>Fallback</title><link rel="redirect_uri" href="/back"></head><body><div class="h-app"><a class="u-url p-name" href="/">Quill &amp; Co</a></div></body></html>');
  });
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is read for its h-app name and redirect URIs where the guard allows the address, and not fetched where it does not', async () => {
    expect(await fetchClientInfo(outgoingRequestGuard({ allowPrivateAddress: true }), url)).toEqual({ name: 'Quill & Co', redirectUris: [`${url}back`] });
    expect(await fetchClientInfo(outgoingRequestGuard({ allowPrivateAddress: false }), url)).toEqual({ name: new URL(url).host, redirectUris: [] });
    expect(readClientPage('<title> My  App </title>', url).name).toBe('My App');
  });
});
