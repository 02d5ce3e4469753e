import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { feedQuerySchema, sitemapBlogsQuerySchema } from '../../shared/feed-schema.js';
import { paths } from '../../shared/paths.js';
import type { AppDeps } from '../app-deps.js';
import { keepInCacheFor } from '../cache/response-cache.plugin.js';
import { notFound } from '../errors.js';
import { isNotModified, strongEtag } from '../http/conditional-get.js';
import { feed, type FeedFormat, feedsChanged, type FeedsChanged, robotsTxt, sitemap, sitemapBlogsPart, sitemapPages } from './feeds.service.js';
import { cachedAs, LISTS, STATIC } from '../cache/route-caching.js';

/**
 * Crawl files and the feeds (RSS, Atom, JSON Feed), at the site's root. Everything here is public
 * and the same for every caller, so shared caches may keep it for five minutes. Feeds and
 * sitemaps send `ETag` and `Last-Modified` and answer a conditional GET that still matches with
 * `304` and no body: feed readers poll every few minutes.
 */

const PUBLIC_CACHE = 'public, max-age=300';
const XML = 'application/xml; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const FEED_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

function send(reply: FastifyReply, contentType: string, body: string) {
  return reply.header('cache-control', PUBLIC_CACHE).type(contentType).send(body);
}

/**
 * An answer with validators. The feeds' change time is read before `build` reads what it lists,
 * so the date is never newer than the content it goes with.
 */
async function sendValidated(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
  build: (changed: FeedsChanged) => Promise<string> | string,
) {
  const changed = await feedsChanged(deps.db);
  const body = await build(changed);
  const etag = strongEtag(body);
  void reply.header('etag', etag);
  if (changed.lastModified) void reply.header('last-modified', changed.lastModified.toUTCString());
  // Kept without a date for longer, a cached copy would answer without one until the next write.
  else keepInCacheFor(request, changed.undatedForMs ?? 0);
  if (isNotModified(request.headers, { etag, lastModified: changed.lastModified })) {
    return reply.code(304).header('cache-control', PUBLIC_CACHE).send();
  }
  return send(reply, contentType, body);
}

/** A feed URL whose parameters cannot name anything is a feed that does not exist: 404, not 400. */
function parseOr404<T extends z.ZodType>(schema: T, query: unknown): z.output<T> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw notFound('There is no such feed.');
  return parsed.data;
}

// Outside the API: not in the OpenAPI document. Feeds and sitemaps are lists (a blog's change
// reorders or recounts them); robots.txt changes only with the configuration.
const asLists = { schema: { hide: true }, config: cachedAs(LISTS) };
const asStatic = { schema: { hide: true }, config: cachedAs(STATIC) };

const FEED_PATHS: Record<FeedFormat, string> = { rss: paths.rss(), atom: paths.atom(), json: paths.jsonFeed() };

export const feedRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(paths.robots(), asStatic, async (_request, reply) => send(reply, TEXT, robotsTxt(deps.config)));

  app.get(paths.sitemap(), asLists, async (request, reply) => sendValidated(deps, request, reply, XML, () => sitemap(deps)));

  app.get(paths.sitemapPages(), asLists, async (request, reply) => sendValidated(deps, request, reply, XML, () => sitemapPages(deps)));

  app.get(paths.sitemapBlogs(), asLists, async (request, reply) => {
    const { from } = parseOr404(sitemapBlogsQuerySchema, request.query);
    return sendValidated(deps, request, reply, XML, () => sitemapBlogsPart(deps, from));
  });

  for (const [format, path] of Object.entries(FEED_PATHS) as [FeedFormat, string][]) {
    app.get(path, asLists, async (request, reply) => {
      const of = parseOr404(feedQuerySchema, request.query);
      return sendValidated(deps, request, reply, FEED_TYPES[format], (changed) => feed(deps, format, changed, of));
    });
  }
};
