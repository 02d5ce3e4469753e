/**
 * A link another server gave us (an actor's profile page, a post's `url`), as the only kind of
 * link we keep and serve: an absolute http(s) URL. Anything else (`javascript:`, `data:`, a
 * relative or unparsable string) is null, so it is never stored, and a row kept before this rule
 * is never served as a link (issue 42).
 */
export function webLinkOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const url = URL.parse(value);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}
