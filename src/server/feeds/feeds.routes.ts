import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { rssQuerySchema, sitemapBlogsQuerySchema } from '../../shared/feed-schema.js';
import { paths } from '../../shared/paths.js';
import type { AppDeps } from '../app-deps.js';
import { notFound } from '../errors.js';
import { robotsTxt, rssFeed, sitemap, sitemapBlogsPart, sitemapPages } from './feeds.service.js';

/**
 * Crawl files and the RSS feed, at the site's root. Everything here is public and the same for
 * every caller, so shared caches may keep it for five minutes.
 */

const PUBLIC_CACHE = 'public, max-age=300';
const XML = 'application/xml; charset=utf-8';
const RSS = 'application/rss+xml; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

function send(reply: FastifyReply, contentType: string, body: string) {
  return reply.header('cache-control', PUBLIC_CACHE).type(contentType).send(body);
}

/** A feed URL whose parameters cannot name anything is a feed that does not exist: 404, not 400. */
function parseOr404<T extends z.ZodType>(schema: T, query: unknown): z.output<T> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw notFound('There is no such feed.');
  return parsed.data;
}

// Outside the API: not in the OpenAPI document.
const hidden = { schema: { hide: true } };

export const feedRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(paths.robots(), hidden, async (_request, reply) => send(reply, TEXT, robotsTxt(deps.config)));

  app.get(paths.sitemap(), hidden, async (_request, reply) => send(reply, XML, await sitemap(deps)));

  app.get(paths.sitemapPages(), hidden, async (_request, reply) => send(reply, XML, sitemapPages(deps.config)));

  app.get(paths.sitemapBlogs(), hidden, async (request, reply) => {
    const { from } = parseOr404(sitemapBlogsQuerySchema, request.query);
    return send(reply, XML, await sitemapBlogsPart(deps, from));
  });

  app.get(paths.rss(), hidden, async (request, reply) => {
    const { author } = parseOr404(rssQuerySchema, request.query);
    return send(reply, RSS, await rssFeed(deps, author));
  });
};
