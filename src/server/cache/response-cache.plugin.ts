import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preferredEncoding } from '../http/accept-encoding.js';
import type { CacheInvalidation } from './cache-invalidation.js';
import { ResponseCache, type Encoding } from './response-cache.js';

/**
 * What each cacheable URL shows, as tags a write can name: `lists` (the home list, search,
 * feeds and sitemap, which any blog's change may reorder), `blog:{id}` (one blog, in the API and
 * on its page) and `static`. Anything else is not cached.
 */
export function cacheTagsFor(url: string): string[] | undefined {
  const [path = '', query = ''] = url.split('?', 2);
  switch (path) {
    case '/':
    case '/search':
    case '/api/blogs':
    case '/api/search':
    case '/rss.xml':
    case '/sitemap.xml':
    case '/sitemap-pages.xml':
    case '/sitemap-blogs.xml':
      return ['lists'];
    case '/about':
    case '/support':
    case '/robots.txt':
      return ['static'];
    case '/viewBlog': {
      const id = new URLSearchParams(query).get('id');
      return id ? [`blog:${id}`] : undefined;
    }
  }
  // A blog's comments change with its page: the same tag.
  const blog = /^\/api\/blogs\/([^/]+)(\/comments)?$/.exec(path);
  return blog ? [`blog:${decodeURIComponent(blog[1]!)}`] : undefined;
}

/** What a successful write changed: the lists, the blog it names, or (an account's deletion) everything. */
export function writeTagsFor(method: string, url: string): string[] | undefined {
  const path = url.split('?', 1)[0] ?? '';
  if (method === 'POST' && path === '/api/blogs') return ['lists'];
  const blog = /^\/api\/blogs\/([^/]+)(\/vote)?$/.exec(path);
  if (blog && (method === 'PATCH' || method === 'DELETE' || (method === 'PUT' && blog[2]))) {
    return ['lists', `blog:${decodeURIComponent(blog[1]!)}`];
  }
  if (method === 'DELETE' && path === '/api/account') return ['*'];
  return undefined;
}

/** A request that carries a session (or any credentials) is never answered from, nor stored into, the cache. */
function isAnonymous(request: FastifyRequest): boolean {
  return !request.headers.authorization && !request.headers.cookie?.includes('session_token');
}

/** The plain bytes of an answer that its handler may have compressed already (pages do). */
function identityBody(payload: Buffer, encoding: unknown): Buffer | undefined {
  if (encoding === undefined || encoding === 'identity') return payload;
  if (encoding === 'br') return brotliDecompressSync(payload);
  if (encoding === 'gzip') return gunzipSync(payload);
  return undefined;
}

interface CacheState {
  tags: string[];
  generation: number;
  hit: boolean;
}

/**
 * The response cache in front of the public pages and read APIs: anonymous GETs are answered
 * from memory with a strong ETag (and 304 when the browser already has it); successful writes
 * invalidate what they changed, in this process before they answer and in the others through
 * `invalidation`.
 */
export function registerResponseCache(app: FastifyInstance, cache: ResponseCache, invalidation: CacheInvalidation): void {
  const states = new WeakMap<FastifyRequest, CacheState>();

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !isAnonymous(request) || !invalidation.reliable) return;
    const tags = cacheTagsFor(request.url);
    if (!tags) return;
    const state: CacheState = { tags, generation: cache.generation, hit: false };
    states.set(request, state);
    const entry = cache.get(request.url);
    if (!entry) return;
    state.hit = true;
    void reply.header('etag', entry.etag).header('x-cache', 'hit').header('vary', 'accept-encoding, cookie');
    if (entry.cacheControl) void reply.header('cache-control', entry.cacheControl);
    if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    const encoding: Encoding = preferredEncoding(request.headers['accept-encoding']) ?? 'identity';
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply.type(entry.contentType).send(ResponseCache.encoded(entry, encoding));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const tags = reply.statusCode < 300 ? writeTagsFor(request.method, request.url) : undefined;
      if (tags) await invalidation.publish(tags);
      return payload;
    }
    const state = states.get(request);
    if (!state || state.hit || reply.statusCode !== 200 || reply.hasHeader('set-cookie')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const body = identityBody(Buffer.from(payload), reply.getHeader('content-encoding'));
    if (!body) return payload;
    const stored = cache.set(request.url, state.generation, {
      body,
      contentType: String(reply.getHeader('content-type') ?? 'application/octet-stream'),
      cacheControl: reply.getHeader('cache-control') as string | undefined,
      tags: state.tags,
    });
    void reply.header('x-cache', 'miss').header('vary', 'accept-encoding, cookie');
    if (stored) void reply.header('etag', stored.etag);
    return payload;
  });
}
