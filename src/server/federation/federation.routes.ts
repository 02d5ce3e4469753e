import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import {
  followInputSchema,
  followingListSchema,
  followingSchema,
  replyInputSchema,
  replyResultSchema,
  timelineSchema,
  unfollowInputSchema,
} from '../../shared/federation-schema.js';
import { absoluteUrl, paths } from '../../shared/paths.js';
import type { AppDeps } from '../app-deps.js';
import { neverCached, privateAnswer } from '../cache/route-caching.js';
import { webLinkOrNull } from '../core/remote-links.js';
import { badRequest, notFound } from '../errors.js';
import { ownDataRead } from '../cache/own-data-read.js';
import { clientKey, type RateLimitRule } from '../rate-limit/rate-limit.js';
import { limitedPerUser } from '../core/visitor-contexts.js';
import type { FederationLoader } from './federation-loader.js';
import type { SiteFederation } from './federation.js';
import * as store from './federation.repository.js';

/** An inbox takes one activity: a quarter of a megabyte is far above any real one. */
export const INBOX_BODY_LIMIT = 256 * 1024;
/** Per sending address: a busy instance's deliveries pass, a flood does not. */
const INBOX_LIMIT: RateLimitRule = { max: 300, windowSeconds: 60 };
const FOLLOW_LIMIT: RateLimitRule = { max: 30, windowSeconds: 60 };
const TIMELINE_SIZE = 50;

const ACTIVITY_JSON = /application\/(activity\+json|ld\+json)/i;

/** Whether a request asks for ActivityPub JSON rather than a page. */
export function wantsActivityJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && ACTIVITY_JSON.test(accept);
}

export type FederationRouteDeps = AppDeps & { loadFederation: FederationLoader };

/**
 * The protocol's routes (WebFinger, NodeInfo, actors, inboxes, collections) hand a Web `Request`
 * to Fedify, the way Fedify's own framework adapters do.
 */
export const federationProtocolRoutes: FastifyPluginAsyncZod<FederationRouteDeps> = async (app, deps) => {
  await app.register(async (protocol) => protocolRoutes(protocol, deps));
};

/** The signed-in API a local reader follows remote authors and replies with. */
export const federationRoutes: FastifyPluginAsyncZod<FederationRouteDeps> = async (app, deps) => {
  /** A follow or a reply on behalf of the signed-in user (limited per user: `FOLLOW_LIMIT`), the site's input errors answered 400. */
  const siteAction = async <T>(request: FastifyRequest, act: (site: SiteFederation, userId: string) => Promise<T>): Promise<T> => {
    const site = await deps.loadFederation();
    return asInputError(() => act(site, request.user.id));
  };

  app.get(
    '/api/federation/following',
    ownDataRead({ tags: ['federation'], summary: 'The remote accounts the signed-in user follows', response: { 200: followingListSchema } }),
    async (request) => {
      const rows = await store.listFollowing(deps.db, request.user.id);
      return { items: rows.map((row) => ({ actorId: row.actor_id, handle: row.handle, name: row.name, state: row.state })) };
    },
  );

  app.post(
    '/api/federation/following',
    {
      config: { ...privateAnswer, ...limitedPerUser('federation-follow', FOLLOW_LIMIT) },
      schema: {
        tags: ['federation'],
        summary: 'Follow a remote account by its fediverse address',
        description: 'Looks the address up (WebFinger), keeps the follow as pending and sends a Follow; the remote Accept makes it accepted.',
        body: followInputSchema,
        response: { 200: followingSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => siteAction(request, (site, userId) => site.follow(userId, request.body.handle)),
  );

  app.delete(
    '/api/federation/following',
    {
      config: privateAnswer,
      schema: {
        tags: ['federation'],
        summary: 'Stop following a remote account (sends Undo of the Follow)',
        body: unfollowInputSchema,
        response: { 204: z.null(), 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const site = await deps.loadFederation();
      if (!(await site.unfollow(request.user.id, request.body.actorId))) throw notFound('You do not follow that account.');
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/federation/timeline',
    ownDataRead({ tags: ['federation'], summary: 'Posts received from the remote accounts the signed-in user follows, newest first', response: { 200: timelineSchema } }),
    async (request) => {
      const rows = await store.timeline(deps.db, request.user.id, TIMELINE_SIZE);
      return {
        items: rows.map((row) => ({
          objectId: row.object_id,
          actorId: row.actor_id,
          handle: row.handle,
          name: row.name,
          // Only ever an http(s) link, also for a row kept before that was checked on arrival.
          url: webLinkOrNull(row.url),
          title: row.title,
          html: row.html,
          summary: row.summary,
          publishedAt: row.published_at ? new Date(row.published_at).toISOString() : null,
          updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : null,
        })),
      };
    },
  );

  app.post(
    '/api/federation/replies',
    {
      config: { ...privateAnswer, ...limitedPerUser('federation-follow', FOLLOW_LIMIT) },
      schema: {
        tags: ['federation'],
        summary: 'Reply to a remote post (sends a public Create(Note) to its author)',
        body: replyInputSchema,
        response: { 200: replyResultSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => siteAction(request, (site, userId) => site.reply(userId, request.body.inReplyTo, request.body.content)),
  );
};

async function asInputError<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if ((error as Error)?.name === 'FederationInputError') throw badRequest((error as Error).message, 'FEDERATION');
    throw error;
  }
}

/** Fedify's own routes; their bodies are kept as bytes (signatures cover them), at most `INBOX_BODY_LIMIT`. */
async function protocolRoutes(app: FastifyInstance, deps: FederationRouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INBOX_BODY_LIMIT }, (_request, body, done) => done(null, body));

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'POST') await deps.limiter.enforce(`federation-inbox:${clientKey(request.ip)}`, INBOX_LIMIT);
    const site = await deps.loadFederation();
    const response = await site.fetch(toWebRequest(request, deps.config.publicUrl), {
      contextData: undefined,
      onNotFound: () => notFoundAnswer(request, deps),
      // A browser on an actor's URL goes to the author's page.
      onNotAcceptable: async () => (await authorPage(request, deps)) ?? new Response('Not acceptable', { status: 406 }),
    });
    return sendWebResponse(reply, response);
  };
  const options = { config: neverCached, schema: { hide: true } };
  for (const path of ['/.well-known/webfinger', '/.well-known/nodeinfo', '/nodeinfo/2.1', '/users/:handle', '/users/:handle/outbox', '/users/:handle/followers']) {
    app.get(path, options, handle);
  }
  for (const path of ['/users/:handle/inbox', '/inbox']) app.post(path, options, handle);
}

function toWebRequest(request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const body = request.method === 'POST' && Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : undefined;
  return new Request(new URL(request.url, publicUrl), { method: request.method, headers, body });
}

async function sendWebResponse(reply: FastifyReply, response: Response) {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

/** A suspended account is gone (410) to the fediverse; anything else unknown is a 404. */
async function notFoundAnswer(request: FastifyRequest, deps: FederationRouteDeps): Promise<Response> {
  const handle = (request.params as { handle?: string }).handle;
  const owner = handle ? await store.findHandleOwner(deps.db, handle) : undefined;
  const gone = owner?.suspended_at != null;
  return Response.json({ error: gone ? 'GONE' : 'NOT_FOUND', message: gone ? 'This account is gone.' : 'Not found.' }, { status: gone ? 410 : 404 });
}

async function authorPage(request: FastifyRequest, deps: FederationRouteDeps): Promise<Response | null> {
  const handle = (request.params as { handle?: string }).handle;
  const user = handle ? await store.findLocalActor(deps.db, handle) : undefined;
  if (!user) return null;
  return new Response(null, { status: 303, headers: { location: absoluteUrl(deps.config.publicUrl, paths.author(user.id)) } });
}

/**
 * A blog's page URL is its Article's id: asked for ActivityPub JSON, `/viewBlog?id=` answers the
 * Article; browsers get the page as before. An `onRequest` hook registered before the response
 * cache's, so a cached page is never the answer to a server asking for JSON.
 */
export function registerArticleNegotiation(app: FastifyInstance, deps: { loadFederation: FederationLoader }): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (!request.url.startsWith('/viewBlog?') || !wantsActivityJson(request)) return;
    const id = new URLSearchParams(request.url.slice('/viewBlog?'.length)).get('id') ?? '';
    const site = await deps.loadFederation();
    const article = await site.articleJson(id);
    reply.header('vary', 'Accept').header('cache-control', 'no-store');
    if (!article) return reply.code(404).type('application/json').send({ error: 'NOT_FOUND', message: 'Not found.' });
    return reply.code(200).type('application/activity+json').send(JSON.stringify(article));
  });
}
