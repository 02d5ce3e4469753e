import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import type { AppDeps } from '../app-deps.js';
import { bearerToken, grantOf, type WrongTokens } from '../core/app-tokens.js';
import { neverCached } from '../cache/route-caching.js';
import { badRequest, notFound } from '../errors.js';
import { idParams, parseId } from '../http/ids.js';
import { metadata, OAuthError, type IndieAuth } from './indieauth.service.js';

export interface IndieAuthRouteDeps extends AppDeps {
  indieAuth: IndieAuth;
  wrongTokens: WrongTokens;
}

const formBody = z.record(z.string(), z.unknown()).optional();
const fields = (body: unknown): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries((body ?? {}) as Record<string, unknown>).map(([key, value]) => [key, typeof value === 'string' ? value : undefined]));
/** OAuth's error shape, with the site's `message` beside it (every error of the API carries one). */
const oauthError = (reply: FastifyReply, error: unknown) => {
  if (!(error instanceof OAuthError)) throw error;
  return reply.code(error.status).header('cache-control', 'no-store').send({ error: error.error, error_description: error.description, message: error.description });
};

/**
 * What apps call (IndieAuth): the metadata, the code's redemption, the token endpoint, revocation
 * and introspection. Form-encoded bodies (as the specifications send them) and JSON.
 */
export const indieAuthProtocolRoutes: FastifyPluginAsyncZod<IndieAuthRouteDeps> = async (app, deps) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    const parsed: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(body as string)) if (!(key in parsed)) parsed[key] = value;
    done(null, parsed);
  });
  const tags = ['indieauth'];

  app.get('/.well-known/oauth-authorization-server', { config: neverCached, schema: { tags, summary: 'IndieAuth server metadata' } }, async () => metadata(deps.config.publicUrl));

  app.post('/indieauth/authorize', { schema: { tags, summary: 'Redeems an authorization code for the author’s identity (me) and profile', body: formBody } }, async (request, reply) => {
    deps.wrongTokens.assertNotBlocked(request.ip);
    try {
      return reply.header('cache-control', 'no-store').send(await deps.indieAuth.redeemForProfile(fields(request.body)));
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'invalid_grant') await deps.wrongTokens.wrong(request.ip);
      return oauthError(reply, error);
    }
  });

  app.post('/indieauth/token', { schema: { tags, summary: 'Exchanges an authorization code (with its PKCE verifier) for an access token', body: formBody } }, async (request, reply) => {
    deps.wrongTokens.assertNotBlocked(request.ip);
    try {
      return reply.header('cache-control', 'no-store').send(await deps.indieAuth.issueToken(fields(request.body)));
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'invalid_grant') await deps.wrongTokens.wrong(request.ip);
      return oauthError(reply, error);
    }
  });

  app.post('/indieauth/revoke', { schema: { tags, summary: 'Revokes an access token (RFC 7009): 200 whether or not it was valid', body: formBody } }, async (request, reply) => {
    const token = fields(request.body).token;
    if (!token) return oauthError(reply, new OAuthError('invalid_request', 'token is required.'));
    const grant = await grantOf(deps, request, token);
    if (grant) await deps.db.deleteFrom('indieauth_tokens').where('id', '=', grant.tokenId).execute();
    return reply.header('cache-control', 'no-store').send({});
  });

  app.post(
    '/indieauth/introspect',
    { schema: { tags, summary: 'Whether a token is active, whose and with which scopes (RFC 7662); authorized by a Bearer token of the same author', body: formBody } },
    async (request, reply) => {
      const bearer = bearerToken(request);
      const caller = bearer ? await grantOf(deps, request, bearer) : null;
      if (!caller) {
        return reply.code(401).header('www-authenticate', 'Bearer').header('cache-control', 'no-store').send({ error: 'unauthorized', error_description: 'A valid Bearer token is required.', message: 'A valid Bearer token is required.' });
      }
      const token = fields(request.body).token;
      if (!token) return oauthError(reply, new OAuthError('invalid_request', 'token is required.'));
      const grant = token === bearer ? caller : await grantOf(deps, request, token);
      reply.header('cache-control', 'no-store');
      if (!grant || grant.userId !== caller.userId) return { active: false };
      return { active: true, me: grant.me, client_id: grant.clientId, scope: grant.scopes.join(' '), iat: Math.floor(grant.issuedAt.getTime() / 1000), token_type: 'Bearer' };
    },
  );
};

const authorizationQuery = z.object({
  response_type: z.string().max(100).optional(),
  client_id: z.string().max(2000).optional(),
  redirect_uri: z.string().max(2000).optional(),
  state: z.string().max(2000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(50).optional(),
  scope: z.string().max(1000).optional(),
  me: z.string().max(2000).optional(),
});
const consentSchema = z.object({
  client: z.object({ id: z.string(), name: z.string() }),
  redirectUri: z.string(),
  me: z.string(),
  scopes: z.array(z.string()),
});
const decisionSchema = authorizationQuery.extend({ allow: z.boolean(), scopes: z.array(z.string().max(50)).max(20).optional() });
const appSchema = z.object({ id: z.string(), clientId: z.string(), name: z.string(), scopes: z.array(z.string()), createdAt: z.string(), lastUsedAt: z.string().nullable() });

/** The consent screen's two calls and Settings' 'Apps', for the signed-in author. */
export const indieAuthAccountRoutes: FastifyPluginAsyncZod<IndieAuthRouteDeps> = async (app, deps) => {
  const tags = ['indieauth'];
  const check = async (query: z.infer<typeof authorizationQuery>) => {
    try {
      return await deps.indieAuth.checkAuthorization(query);
    } catch (error) {
      if (error instanceof OAuthError) throw badRequest(error.description, error.error.toUpperCase());
      throw error;
    }
  };

  app.get(
    '/api/indieauth/authorization',
    { schema: { tags, summary: 'An authorization request as the consent screen shows it: the app, where it returns, the scopes', querystring: authorizationQuery, response: { 200: consentSchema, 400: apiErrorSchema } } },
    async (request) => {
      const checked = await check(request.query);
      return { client: { id: checked.clientId, name: checked.client.name }, redirectUri: checked.redirectUri, me: new URL(`/author?id=${encodeURIComponent(request.user.id)}`, deps.config.publicUrl).href, scopes: checked.scopes };
    },
  );

  app.post(
    '/api/indieauth/authorization',
    { schema: { tags, summary: "The author's 'Allow' or 'Deny': where to send the browser (the app's redirect URI with a code, or access_denied)", body: decisionSchema, response: { 200: z.object({ location: z.string() }), 400: apiErrorSchema } } },
    async (request) => {
      const { allow, scopes, ...query } = request.body;
      const checked = await check(query);
      return { location: await deps.indieAuth.decide(request.user.id, checked, allow, scopes ?? checked.scopes) };
    },
  );

  app.get('/api/account/apps', { schema: { tags, summary: 'The apps holding a token for the account, with their scopes and last use', response: { 200: z.object({ items: z.array(appSchema) }) } } }, async (request) => {
    const rows = await deps.db
      .selectFrom('indieauth_tokens')
      .select(['id', 'client_id', 'client_name', 'scope', 'created_at', 'last_used_at'])
      .where('user_id', '=', request.user.id)
      .orderBy('created_at', 'desc')
      .limit(200)
      .execute();
    return {
      items: rows.map((row) => ({
        id: row.id,
        clientId: row.client_id,
        name: row.client_name,
        scopes: row.scope.split(' ').filter(Boolean),
        createdAt: new Date(row.created_at).toISOString(),
        lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
      })),
    };
  });

  app.delete('/api/account/apps/:id', { schema: { tags, summary: "Revokes an app's token", params: idParams, response: { 204: z.null(), 404: apiErrorSchema } } }, async (request, reply) => {
    const id = parseId(request.params.id, () => notFound('There is no such app.'));
    const deleted = await deps.db.deleteFrom('indieauth_tokens').where('id', '=', id).where('user_id', '=', request.user.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound('There is no such app.');
    return reply.code(204).send(null);
  });
};
