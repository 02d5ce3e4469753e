/**
 * A blog's page URL is also its ActivityPub Article's id: `/viewBlog?id=` answers HTML or the
 * Article by the request's `Accept` (docs/federation.md). Its answers say so (`Vary: Accept`), in
 * the page handler and in the response cache alike, so a cache between us and the reader (a CDN)
 * never gives a browser the JSON or a server the page.
 */
export function variesOnAccept(url: string): boolean {
  return url === '/viewBlog' || url.startsWith('/viewBlog?');
}

/** The `Vary` of a cacheable answer for `url`: what every answer varies on, and `Accept` where it matters. */
export function varyOf(url: string, base: string): string {
  return variesOnAccept(url) ? `accept, ${base}` : base;
}
