import type { FastifyInstance, FastifyRequest } from 'fastify';
import { blogTag, EVERYTHING_TAG, LISTS_TAG, STATIC_TAG } from '../../shared/cache-tags.js';
import { PUBLIC_READ_LIMIT, type ReadLimit } from '../rate-limit/rate-limit.js';

/**
 * How a route says, where it is defined, what its answers show and what its writes change
 * (`config` in its options): the response cache reads these, never the URL.
 *
 *   app.get('/api/blogs/:id', { config: cachedAs(theBlog, { readLimit: PUBLIC_READ_LIMIT }), ... })
 *   app.patch('/api/blogs/:id', { config: changes((request) => [LISTS_TAG, ...theBlog(request)]), ... })
 *   app.get('/api/account/sessions', { config: privateAnswer, ... })   (a signed-in context's GETs default to it)
 *   app.get('/api/health', { config: neverCached, ... })
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** What an anonymous GET's answer shows, as cache tags; `false`: never kept (private, or not the same for everyone). */
    cache?: RouteCache | false;
    /** The answer is its reader's own: `cache-control: private, no-store` on it, errors included. */
    privateAnswer?: true;
    /** What a successful write changed, as cache tags (undefined: nothing anyone else sees). */
    changes?: (request: FastifyRequest) => readonly string[] | undefined;
  }
}

export interface RouteCache {
  /** The tags of the answer to this request; undefined keeps it out of the cache. */
  tags: (request: FastifyRequest) => readonly string[] | undefined;
  /** The per-client limit on these reads, kept by the route and by the cache's hits alike. */
  readLimit?: ReadLimit;
}

export type Tags = readonly string[] | ((request: FastifyRequest) => readonly string[] | undefined);

const asFunction = (tags: Tags) => (typeof tags === 'function' ? tags : () => tags);

/** Answers to anonymous readers are kept under `tags` until a write names one of them. */
export function cachedAs(tags: Tags, options: { readLimit?: ReadLimit } = {}): { cache: RouteCache } {
  return { cache: { tags: asFunction(tags), readLimit: options.readLimit } };
}

/** Never kept: the answer is about its reader (or the server's state), not the same for everyone. */
export const neverCached = { cache: false } as const;

/** Never kept, by us or by any cache on the way: the answer is its signed-in reader's own. */
export const privateAnswer = { cache: false, privateAnswer: true } as const;

const reportedByHandler = new WeakMap<FastifyRequest, readonly string[]>();

/**
 * Said by the handler of a route declared `changes(reportedChanges)`: what its write changed, once
 * the handler knows (an empty list: nothing readers see, as a draft saved as a draft).
 */
export function reportChanges(request: FastifyRequest, tags: readonly string[]): void {
  reportedByHandler.set(request, tags);
}

/** A route whose handler alone knows what it changed: `changes(reportedChanges)`, and the handler reports. */
export const reportedChanges = (): readonly string[] | undefined => undefined;

/**
 * A successful write drops the answers kept under `tags`, here and, by a notice, in every other
 * process; what its handler reported (`reportChanges`) replaces them (docs/response-cache.md).
 */
export function changes(tags: Tags): { changes: (request: FastifyRequest) => readonly string[] | undefined } {
  const declared = asFunction(tags);
  return { changes: (request) => reportedByHandler.get(request) ?? declared(request) };
}

/** The blog a route's `:id` names, as its tag: its answers, its comments and its page. */
export const theBlog = (request: FastifyRequest): string[] => [blogTag((request.params as { id: string }).id)];
/** A change to one blog: its own answers and every list it is in. */
export const theBlogAndLists = (request: FastifyRequest): string[] => [LISTS_TAG, ...theBlog(request)];

export const LISTS = [LISTS_TAG] as const;
export const STATIC = [STATIC_TAG] as const;
export const EVERYTHING = [EVERYTHING_TAG] as const;

/** What this request's route declared about its answers (undefined: a page, or the not-found answer). */
export function declaredCache(request: FastifyRequest): RouteCache | false | undefined {
  return request.routeOptions.config?.cache;
}

/** The read limit this request's route declared, for the route's own count (publicReader). */
export function declaredReadLimit(request: FastifyRequest): ReadLimit {
  const cache = declaredCache(request);
  return (cache && cache.readLimit) || PUBLIC_READ_LIMIT;
}

/** The tags a successful write through this request's route changed. */
export function declaredChanges(request: FastifyRequest): readonly string[] | undefined {
  return request.routeOptions.config?.changes?.(request);
}

/**
 * Applies the declarations to the routes of the context it is called on (the features', not the
 * static files'): a GET route that says nothing about caching gets the context's default (a
 * signed-in context's answers are their reader's own), and where the context has none is refused
 * when it is registered (every answer to a GET is either kept under tags or declared never kept);
 * the answers of `privateAnswer` routes are marked private before their handler runs, so that its
 * errors are too.
 */
export function applyCacheDeclarations(app: FastifyInstance, getDefault?: typeof privateAnswer): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    if (route.config?.cache === undefined && getDefault) route.config = { ...route.config, ...getDefault };
    if (route.config?.cache === undefined) {
      throw new Error(`GET ${route.url} declares no caching: give it \`config: cachedAs(tags)\`, \`neverCached\` or \`privateAnswer\` (cache/route-caching.ts)`);
    }
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config?.privateAnswer) void reply.header('cache-control', 'private, no-store');
    done();
  });
}
