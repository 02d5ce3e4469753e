import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LISTS_TAG, SITE_TAG, STATIC_TAG } from '../../shared/cache-tags.js';
import { cachedAs, neverCached } from '../cache/route-caching.js';
import type { RateLimiter } from '../rate-limit/rate-limit.js';
import { clientKey, PUBLIC_READ_LIMIT } from '../rate-limit/rate-limit.js';
import {
  browseAuthors,
  browsePages,
  browsePosts,
  browseTags,
  GhostError,
  readAuthor,
  readPage,
  readPost,
  readSettings,
  readTag,
  type BrowseOptions,
  type ContentApiDeps,
} from './content-api.service.js';
import { ghostErrorHandler } from './ghost-errors.js';
import { GHOST_CONTENT_TAG, integrationByContentKey, type IntegrationsDeps } from './integrations.service.js';

const CONTENT_TAGS = [LISTS_TAG, STATIC_TAG, SITE_TAG, GHOST_CONTENT_TAG] as const;
export const CONTENT_API_PREFIX = '/ghost/api/content/';

/** Wrong keys per address: a stop for guessing, far above a client with a typo. */
const WRONG_KEY_LIMIT = { max: 30, windowSeconds: 300 };

const query = z.object({
  key: z.string().optional(),
  limit: z.string().optional(),
  page: z.string().optional(),
  filter: z.string().optional(),
  order: z.string().optional(),
  fields: z.string().optional(),
  include: z.string().optional(),
  formats: z.string().optional(),
});

/** The headers Ghost's Content API answers browsers with: any origin may read it. */
export function contentApiCors(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.url.startsWith(CONTENT_API_PREFIX)) {
    reply.raw.setHeader('access-control-allow-origin', '*');
  }
  done();
}

/**
 * `/ghost/api/content/…` (issue 60, docs/apis.md): Ghost's Content API, read-only, opened by an
 * integration's Content API key (`?key=`); answers and errors in Ghost's shapes.
 */
export const contentApiRoutes: FastifyPluginAsyncZod<{ content: ContentApiDeps; integrations: IntegrationsDeps; limiter: Pick<RateLimiter, 'enforce'> }> = async (app, deps) => {
  app.setErrorHandler(ghostErrorHandler('Content API', { status: 400, type: 'BadRequestError' }));

  app.addHook('preHandler', async (request) => {
    if (request.method === 'OPTIONS') return;
    const key = (request.query as { key?: string }).key;
    if (!key) throw new GhostError(403, 'NoPermissionError', 'Authorization failed: a Content API key is needed (?key=).');
    if (!(await integrationByContentKey(deps.integrations, key))) {
      await deps.limiter.enforce(`ghost-content-key:client:${clientKey(request.ip)}`, WRONG_KEY_LIMIT);
      throw new GhostError(401, 'UnauthorizedError', 'Unknown Content API Key');
    }
  });

  const read = { config: cachedAs(CONTENT_TAGS, { readLimit: PUBLIC_READ_LIMIT }), schema: { hide: true, querystring: query } };
  const withSlug = { ...read, schema: { ...read.schema, params: z.object({ slug: z.string() }) } };
  const withId = { ...read, schema: { ...read.schema, params: z.object({ id: z.string() }) } };
  const p = CONTENT_API_PREFIX;
  const options = (request: { query: BrowseOptions }) => request.query;

  app.get(`${p}posts/`, read, async (request) => browsePosts(deps.content, options(request)));
  app.get(`${p}posts/slug/:slug/`, withSlug, async (request) => readPost(deps.content, { slug: request.params.slug }, options(request)));
  app.get(`${p}posts/:id/`, withId, async (request) => readPost(deps.content, { id: request.params.id }, options(request)));
  app.get(`${p}pages/`, read, async (request) => browsePages(deps.content, options(request)));
  app.get(`${p}pages/slug/:slug/`, withSlug, async (request) => readPage(deps.content, request.params.slug, options(request)));
  app.get(`${p}pages/:id/`, withId, async (request) => readPage(deps.content, request.params.id, options(request)));
  app.get(`${p}tags/`, read, async (request) => browseTags(deps.content, options(request)));
  app.get(`${p}tags/slug/:slug/`, withSlug, async (request) => readTag(deps.content, request.params.slug, options(request)));
  app.get(`${p}tags/:id/`, withId, async (request) => readTag(deps.content, request.params.id, options(request)));
  app.get(`${p}authors/`, read, async (request) => browseAuthors(deps.content, options(request)));
  app.get(`${p}authors/slug/:slug/`, withSlug, async (request) => readAuthor(deps.content, { slug: request.params.slug }, options(request)));
  app.get(`${p}authors/:id/`, withId, async (request) => readAuthor(deps.content, { id: request.params.id }, options(request)));
  app.get(`${p}settings/`, read, async () => readSettings(deps.content));

  // A browser's preflight (the clients send Accept-Version): any origin, GET only.
  app.options(`${p}*`, { config: neverCached, schema: { hide: true } }, async (_request, reply) =>
    reply.status(204).header('access-control-allow-methods', 'GET, HEAD, OPTIONS').header('access-control-allow-headers', 'Accept-Version, Content-Type, Authorization').header('access-control-max-age', '86400').send(),
  );
};
