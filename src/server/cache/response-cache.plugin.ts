import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preferredEncoding } from '../http/accept-encoding.js';
import { isNotModified } from '../http/conditional-get.js';
import { clientKey, type RateLimiter } from '../rate-limit/rate-limit.js';
import type { CacheInvalidation } from './cache-invalidation.js';
import type { Encoding, ResponseCache } from './response-cache.js';
import { declaredCache, declaredChanges } from './route-caching.js';
import { varyOf } from '../http/negotiated-pages.js';

/** `Accept-Encoding` headers come in a handful of shapes: each is parsed once. */
const encodings = new Map<string, Encoding>();
function encodingFor(header: string | undefined): Encoding {
  if (header === undefined) return 'identity';
  let encoding = encodings.get(header);
  if (encoding === undefined) {
    encoding = preferredEncoding(header) ?? 'identity';
    if (encodings.size >= 256) encodings.clear();
    encodings.set(header, encoding);
  }
  return encoding;
}

const keptFor = new WeakMap<FastifyRequest, number>();

/**
 * Said by a route whose answer is right now but only for a while (a feed whose newest change is
 * too recent to date with `Last-Modified`: kept longer, its hits would go without one until the
 * next write). The answer is kept for `ms` at most.
 */
export function keepInCacheFor(request: FastifyRequest, ms: number): void {
  keptFor.set(request, ms);
}

const noticeSentByWrite = new WeakSet<FastifyRequest>();

const pageTags = new WeakMap<FastifyRequest, readonly string[]>();

/**
 * Said by the page handler once a page is rendered: the tags its screen declared (pages answer
 * from the not-found handler, one route for every page, so each screen says what it shows).
 */
export function declarePageTags(request: FastifyRequest, tags: readonly string[] | undefined): void {
  if (tags) pageTags.set(request, tags);
}

/** Said by a write that sends its cache notice from its own statement (`PublicData.writeNotice`). */
export function markNoticeSent(request: FastifyRequest): void {
  noticeSentByWrite.add(request);
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
  /** The route's declared tags; undefined for a page until its screen declares them. */
  tags: readonly string[] | undefined;
  generation: number;
  hit: boolean;
}

/**
 * The response cache in front of the public pages and read APIs: anonymous GETs are answered
 * from memory with a strong ETag (and 304 when the browser already has it); successful writes
 * invalidate what they changed, in this process before they answer and in the others through
 * `invalidation`.
 */
export function registerResponseCache(app: FastifyInstance, cache: ResponseCache, invalidation: CacheInvalidation, limiter: RateLimiter): void {
  const states = new WeakMap<FastifyRequest, CacheState>();
  const securityHeaders = Object.entries(cache.securityHeaders);

  // The first hook of every request, and a callback one (no promise per request): a hit is
  // answered here, before any session lookup, body parsing or database work, straight onto the
  // socket with the header block made when the entry was stored.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !isAnonymous(request) || !invalidation.reliable) return done();
    // Routes declare what they show (`cache/route-caching.ts`); pages answer from the not-found
    // handler and declare theirs once rendered, by their screen.
    const declared = declaredCache(request);
    if (declared === false || (declared === undefined && !request.is404)) return done();
    const tags = declared ? declared.tags(request) : undefined;
    if (declared && !tags) return done();
    const state: CacheState = { tags, generation: cache.generation, hit: false };
    states.set(request, state);
    const entry = cache.get(request.url);
    if (!entry) {
      cache.counts.misses += 1;
      return done();
    }
    const limit = declared ? declared.readLimit : undefined;
    if (limit) {
      try {
        limiter.enforceInMemory(`${limit.prefix}:${clientKey(request.ip)}`, limit.rule, limit.message);
      } catch (error) {
        // The refusal goes through the error handler; the security headers' hook does not run after a failed one.
        for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
        return done(error as Error);
      }
    }
    state.hit = true;
    cache.counts.hits += 1;
    void reply.hijack();
    const lastModified = entry.lastModified === undefined ? undefined : new Date(entry.lastModified);
    if (isNotModified(request.headers, { etag: entry.etag, lastModified })) {
      reply.raw.writeHead(304, entry.notModifiedHeaders).end();
      return;
    }
    const encoding = encodingFor(request.headers['accept-encoding']);
    reply.raw.writeHead(200, entry.hitHeaders[encoding]);
    reply.raw.end(request.method === 'HEAD' ? undefined : encoding === 'identity' ? entry.body : entry[encoding]);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const tags = reply.statusCode < 300 ? declaredChanges(request) : undefined;
      if (tags && tags.length > 0) await invalidation.publish(tags, { alreadySent: noticeSentByWrite.has(request) });
      return payload;
    }
    const state = states.get(request);
    if (!state || state.hit || reply.statusCode !== 200 || reply.hasHeader('set-cookie')) return payload;
    const tags = state.tags ?? pageTags.get(request);
    if (!tags) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const body = identityBody(Buffer.from(payload), reply.getHeader('content-encoding'));
    if (!body) return payload;
    const stored = cache.set(request.url, state.generation, {
      body,
      contentType: String(reply.getHeader('content-type') ?? 'application/octet-stream'),
      cacheControl: reply.getHeader('cache-control') as string | undefined,
      lastModified: reply.getHeader('last-modified') as string | undefined,
      tags,
    }, keptFor.get(request));
    void reply.header('x-cache', 'miss').header('vary', varyOf(request.url, 'accept-encoding, cookie'));
    if (stored) void reply.header('etag', stored.etag);
    return payload;
  });
}
