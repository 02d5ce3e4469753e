import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import type { AnalyticsPageKind } from '../db/schema.js';
import { referrerHost, sourceOf } from './referrer-sources.js';

/** A view of a public page, as the buffer holds it until its flush: the address and user agent only until hashed. */
export interface CountedView {
  type: 'view';
  day: string;
  kind: AnalyticsPageKind;
  blogId: string | null;
  address: string;
  userAgent: string;
  referrerHost: string | null;
  source: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

/** A fetch of a feed: the reader service (its user agent without the count) and the subscribers it reported. */
export interface CountedFeedFetch {
  type: 'feed';
  day: string;
  address: string;
  service: string;
  subscribers: number | null;
}

export type Counted = CountedView | CountedFeedFetch;

const PAGES: Record<string, AnalyticsPageKind> = { '/': 'home', '/viewBlog': 'blog', '/author': 'author', '/tag': 'tag', '/search': 'search' };
const FEEDS = new Set(['/rss.xml', '/atom.xml', '/feed.json']);
/** Feedbin, Inoreader, Feedly and others: `…; 12 subscribers; …` (Feedly also sends `feed-id`, kept: one count per feed). */
const SUBSCRIBERS = /(\d{1,9})\s+(?:subscribers|readers)\b/i;
const UTM_MAX = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A blog's readable address (issue 58): `/blog/<slug>`. */
const BLOG_ADDRESS = /^\/blog\/([a-z0-9]+(?:-[a-z0-9]+)*)$/;
/**
 * A view of `/blog/<slug>` is held with its slug behind this mark in place of the blog's id (the
 * request does not know the id, and a cache hit never asks); the flush writes the blog's id
 * (`insertCounted`). A blog id never starts with it.
 */
export const BLOG_SLUG_MARK = '/';

/**
 * isbot's verdict per user agent, its one large pattern run once per browser rather than once per
 * view: a reader's user agent maps to one kept copy of itself (so the views held until the flush
 * share it, instead of each holding the request's own), a robot's to null.
 */
const agents = new Map<string, string | null>();
function browserAgent(userAgent: string): string | null {
  let agent = agents.get(userAgent);
  if (agent === undefined) {
    agent = isbot(userAgent) ? null : userAgent;
    if (agents.size >= 1_000) agents.clear();
    agents.set(userAgent, agent);
  }
  return agent;
}

/** The headers in which browsers say a request is a prefetch or a prerender. */
const PURPOSE_HEADERS = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz'] as const;
const GUESSING = /prefetch|prerender/i;

/** Prefetches and prerenders (a browser guessing, not a reader reading), and readers who asked not to be counted. */
function notToBeCounted(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers.dnt === '1' || headers['sec-gpc'] === '1') return true;
  for (const name of PURPOSE_HEADERS) {
    const value = headers[name];
    if (value !== undefined && GUESSING.test(String(value))) return true;
  }
  return false;
}

/** A query parameter's first value, as Fastify parsed the query (a repeated name gives an array). */
function first(value: unknown): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' ? one : undefined;
}

function utm(query: Record<string, unknown>, name: string): string | null {
  const value = first(query[name])?.trim().toLowerCase();
  return value ? value.slice(0, UTM_MAX) : null;
}

/**
 * Whether this request is one to count, and what of it: a GET of a public page (home, a blog,
 * an author, a tag, search) or of a feed, by a person's browser or a feed reader, not a bot,
 * not a prefetch, not a HEAD, without `DNT: 1` or `Sec-GPC: 1`. Whether it is then counted
 * depends on its answer (200, or a 304 to a browser that had the page).
 */
export function countedRequest(request: FastifyRequest, today: () => string, siteHost: string): Counted | null {
  if (request.method !== 'GET') return null;
  const queryAt = request.url.indexOf('?');
  const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
  const address = pathname.length <= 100 ? BLOG_ADDRESS.exec(pathname) : null;
  const kind = address ? 'blog' : PAGES[pathname];
  const isFeed = kind === undefined && FEEDS.has(pathname);
  if (kind === undefined && !isFeed) return null;
  if (notToBeCounted(request)) return null;
  const day = today();
  const userAgent = request.headers['user-agent'] ?? '';
  if (isFeed) {
    const reported = SUBSCRIBERS.exec(userAgent);
    // A feed reader is a robot by isbot's list; a fetch counts unless it is a search engine's crawler.
    if (!reported && (userAgent === '' || /googlebot|bingbot|yandex|baiduspider|duckduckbot|applebot|petalbot|ahrefs|semrush/i.test(userAgent))) return null;
    return {
      type: 'feed',
      day,
      address: request.ip,
      service: userAgent.replace(SUBSCRIBERS, '').slice(0, 500),
      subscribers: reported ? Number(reported[1]) : null,
    };
  }
  const agent = userAgent === '' ? null : browserAgent(userAgent);
  if (agent === null) return null;
  // The query as Fastify parsed it for the route (a URLSearchParams per request cost more than the rest of this).
  const query = request.query as Record<string, unknown>;
  const blogId = address ? `${BLOG_SLUG_MARK}${address[1]}` : kind === 'blog' ? (first(query.id)?.toLowerCase() ?? '') : null;
  if (blogId !== null && !address && !UUID.test(blogId)) return null;
  const host = referrerHost(request.headers.referer, siteHost);
  const utmSource = utm(query, 'utm_source');
  const utmMedium = utm(query, 'utm_medium');
  return {
    type: 'view',
    day,
    kind: kind!,
    blogId,
    address: request.ip,
    userAgent: agent,
    referrerHost: host,
    source: sourceOf(host, { source: utmSource, medium: utmMedium }),
    utmSource,
    utmMedium,
    utmCampaign: utm(query, 'utm_campaign'),
  };
}
