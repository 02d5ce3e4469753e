import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newAppToken, sameDigest, sha256 } from '../core/app-tokens.js';
import type { Database } from '../db/schema.js';
import type { OutgoingRequestGuard } from '../http/public-address.js';
import { fetchClientInfo, type ClientInfo } from './client-info.js';

/** The scopes an app may ask for: its author's identity and profile (never the e-mail), and Micropub's. */
export const SCOPES_SUPPORTED = ['profile', 'create', 'update', 'delete', 'media', 'draft'] as const;
export const CODE_LIFETIME_MS = 10 * 60_000;

export interface IndieAuthDeps {
  db: Kysely<Database>;
  publicUrl: string;
  guard: OutgoingRequestGuard;
  now: () => Date;
}

/** An OAuth error as IndieAuth answers it (`{ error, error_description }`). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export const siteUrl = (publicUrl: string) => new URL('/', publicUrl).href;
export const authorUrl = (publicUrl: string, userId: string) => new URL(`/author?id=${encodeURIComponent(userId)}`, publicUrl).href;

export function endpoints(publicUrl: string) {
  const at = (path: string) => new URL(path, publicUrl).href;
  return {
    issuer: siteUrl(publicUrl),
    authorization_endpoint: at('/indieauth/authorize'),
    token_endpoint: at('/indieauth/token'),
    revocation_endpoint: at('/indieauth/revoke'),
    introspection_endpoint: at('/indieauth/introspect'),
  };
}

/** The metadata document (`/.well-known/oauth-authorization-server`, IndieAuth § 4.1.1). */
export function metadata(publicUrl: string) {
  return {
    ...endpoints(publicUrl),
    revocation_endpoint_auth_methods_supported: ['none'],
    introspection_endpoint_auth_methods_supported: ['Bearer'],
    scopes_supported: [...SCOPES_SUPPORTED],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: 'https://indieauth.spec.indieweb.org/',
  };
}

/** The query of an authorization request, as the app sends the browser. */
export interface AuthorizationQuery {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  scope?: string;
  me?: string;
}

export interface AuthorizationRequest {
  clientId: string;
  client: ClientInfo;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scopes: string[];
}

/** A client identifier or redirect URI: an http(s) URL without fragment, user or password. */
function appUrl(value: string | undefined, name: string): URL {
  if (!value || !URL.canParse(value)) throw new OAuthError('invalid_request', `${name} must be a URL.`);
  const url = new URL(value);
  if (!['http:', 'https:'].includes(url.protocol) || url.hash || url.username || url.password) throw new OAuthError('invalid_request', `${name} must be an http or https URL without fragment or credentials.`);
  return url;
}

/** Client page names, for the consent screen and then the grant (ten minutes, a few hundred apps). */
const CLIENT_CACHE_MS = 10 * 60_000;
const CLIENT_CACHE_SIZE = 500;

export function createIndieAuth(deps: IndieAuthDeps) {
  const clients = new Map<string, { info: Promise<ClientInfo>; at: number }>();
  const clientInfo = (clientId: string): Promise<ClientInfo> => {
    const now = Date.now();
    const cached = clients.get(clientId);
    if (cached && now - cached.at < CLIENT_CACHE_MS) return cached.info;
    if (clients.size >= CLIENT_CACHE_SIZE) clients.delete(clients.keys().next().value!);
    const info = fetchClientInfo(deps.guard, clientId);
    clients.set(clientId, { info, at: now });
    return info;
  };

  /** Checks an authorization request (IndieAuth § 5.2): PKCE with S256 is required, plain or none refused. */
  async function checkAuthorization(query: AuthorizationQuery): Promise<AuthorizationRequest> {
    if (query.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code.');
    const clientId = appUrl(query.client_id, 'client_id');
    const redirectUri = appUrl(query.redirect_uri, 'redirect_uri');
    if (!query.state) throw new OAuthError('invalid_request', 'state is required.');
    if (!query.code_challenge) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE).');
    if (query.code_challenge_method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256.');
    if (!/^[A-Za-z0-9_-]{43,128}$/.test(query.code_challenge)) throw new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256.');
    const client = await clientInfo(clientId.href);
    if (redirectUri.origin !== clientId.origin && !client.redirectUris.includes(redirectUri.href)) {
      throw new OAuthError('invalid_request', 'redirect_uri must be on the app’s own site, or listed on its client_id page.');
    }
    const requested = (query.scope ?? '').split(/\s+/).filter(Boolean);
    const scopes = [...new Set(requested.filter((scope) => (SCOPES_SUPPORTED as readonly string[]).includes(scope)))];
    return { clientId: clientId.href, client, redirectUri: redirectUri.href, state: query.state, codeChallenge: query.code_challenge, scopes };
  }

  const withParams = (uri: string, params: Record<string, string>) => {
    const url = new URL(uri);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.href;
  };

  /** The author's answer: a code (kept hashed, ten minutes) on 'Allow', `access_denied` on 'Deny'; where to send the browser. */
  async function decide(userId: string, request: AuthorizationRequest, allow: boolean, scopes: string[]): Promise<string> {
    const iss = siteUrl(deps.publicUrl);
    if (!allow) return withParams(request.redirectUri, { error: 'access_denied', state: request.state, iss });
    const granted = request.scopes.filter((scope) => scopes.includes(scope));
    const code = randomBytes(32).toString('base64url');
    await deps.db.deleteFrom('indieauth_codes').where('expires_at', '<', deps.now()).execute();
    await deps.db
      .insertInto('indieauth_codes')
      .values({
        code_hash: sha256(code),
        user_id: userId,
        client_id: request.clientId,
        client_name: request.client.name,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        scope: granted.join(' '),
        me: authorUrl(deps.publicUrl, userId),
        expires_at: new Date(deps.now().getTime() + CODE_LIFETIME_MS),
      })
      .execute();
    return withParams(request.redirectUri, { code, state: request.state, iss });
  }

  /** Redeems a code once (it is gone whatever the outcome), checking the app, its redirect URI and the PKCE verifier. */
  async function redeem(body: Record<string, string | undefined>) {
    if (!body.code || !body.client_id || !body.redirect_uri || !body.code_verifier) throw new OAuthError('invalid_request', 'code, client_id, redirect_uri and code_verifier are required.');
    const row = await deps.db.deleteFrom('indieauth_codes').where('code_hash', '=', sha256(body.code)).returningAll().executeTakeFirst();
    const challenge = createHash('sha256').update(body.code_verifier).digest('base64url');
    const valid =
      row &&
      row.expires_at.getTime() > deps.now().getTime() &&
      row.client_id === body.client_id &&
      row.redirect_uri === body.redirect_uri &&
      sameDigest(sha256(challenge), sha256(row.code_challenge));
    if (!valid) throw new OAuthError('invalid_grant', 'The authorization code is invalid, expired, already used, or was not issued for this client, redirect_uri and code_verifier.');
    return row;
  }

  async function profileOf(userId: string) {
    const user = await deps.db.selectFrom('user').select(['name', 'display_name', 'handle', 'image']).where('id', '=', userId).executeTakeFirstOrThrow();
    return { name: user.display_name ?? user.name ?? user.handle, url: authorUrl(deps.publicUrl, userId), ...(user.image ? { photo: new URL(user.image, deps.publicUrl).href } : {}) };
  }

  /** The token endpoint's grant: an access token for a code with scopes (none for a profile-only code). */
  async function issueToken(body: Record<string, string | undefined>) {
    if (body.grant_type !== 'authorization_code') throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code.');
    const row = await redeem(body);
    if (!row.scope) throw new OAuthError('invalid_grant', 'This code was granted no scope: redeem it at the authorization endpoint for the profile.');
    const token = newAppToken();
    await deps.db
      .insertInto('indieauth_tokens')
      .values({ selector: token.selector, secret_hash: token.secretHash, user_id: row.user_id, client_id: row.client_id, client_name: row.client_name, scope: row.scope, me: row.me })
      .execute();
    const scopes = row.scope.split(' ');
    return { access_token: token.token, token_type: 'Bearer', scope: row.scope, me: row.me, ...(scopes.includes('profile') ? { profile: await profileOf(row.user_id) } : {}) };
  }

  /** The authorization endpoint's own redemption (a sign-in only): the `me`, and the profile when granted. */
  async function redeemForProfile(body: Record<string, string | undefined>) {
    if (body.grant_type !== undefined && body.grant_type !== 'authorization_code') throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code.');
    const row = await redeem(body);
    return { me: row.me, ...(row.scope.split(' ').includes('profile') ? { profile: await profileOf(row.user_id) } : {}) };
  }

  return { checkAuthorization, decide, issueToken, redeemForProfile };
}

export type IndieAuth = ReturnType<typeof createIndieAuth>;
