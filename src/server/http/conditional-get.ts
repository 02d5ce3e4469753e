import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Conditional GET (RFC 9110 §13): one reading of `If-None-Match` and `If-Modified-Since`, used by
 * the routes that send validators (feeds, sitemaps) and by the response cache's hits alike, so an
 * answer from memory revalidates exactly as one from the route.
 */

/** A strong validator: the same bytes give the same tag, in every process. */
export function strongEtag(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

export interface Validators {
  etag: string;
  /** Whole seconds (an HTTP date has no finer resolution); absent when the answer sends none. */
  lastModified?: Date;
}

/** The opaque part of an entity tag, `W/` or not: `If-None-Match` compares weakly (§13.1.2). */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * Whether the client's copy is still current, so the answer is `304` with no body. A present
 * `If-None-Match` decides alone (`*`, or any listed tag equal to ours); only without it does
 * `If-Modified-Since` count, when it parses and is not before our `Last-Modified`.
 */
export function isNotModified(headers: IncomingHttpHeaders, validators: Validators): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim());
    return tags.includes('*') || tags.some((tag) => opaque(tag) === opaque(validators.etag));
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || validators.lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && since >= validators.lastModified.getTime();
}
