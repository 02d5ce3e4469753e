/**
 * What a navigation link the owner set points at (issue 56): a path on this site, an http(s)
 * address elsewhere, or neither. The settings' schema refuses "neither"; the navbar renders it as
 * plain text, so a value stored past the schema (an older check, a hand-edited row) cannot reach
 * React Router, which throws "External navigation is not allowed" while rendering on the server.
 */
export type NavigationTarget = { kind: 'site'; path: string } | { kind: 'elsewhere'; href: string } | { kind: 'inert' };

/** An origin no real site has: a path is on this site only if resolving it against this keeps it. */
const PROBE_ORIGIN = 'http://x.invalid';

/**
 * Whitespace, control and invisible formatting characters, and the backslash: the URL parser drops
 * tabs and newlines and reads `\` as `/` in http(s), so `/\evil.example/` or `/<tab>/evil.example`
 * is another host once a browser has read it.
 */
const UNSAFE_CHARACTERS = /[\s\p{Cc}\p{Cf}\\]/u;

const INERT: NavigationTarget = { kind: 'inert' };

export function navigationTargetOf(url: string): NavigationTarget {
  if (url === '' || UNSAFE_CHARACTERS.test(url)) return INERT;
  if (url.startsWith('/')) return isSitePath(url) ? { kind: 'site', path: url } : INERT;
  // Written out in full: `https:evil.example` is an address to the parser, but not one anyone means to type.
  if (!/^https?:\/\//i.test(url)) return INERT;
  const parsed = parseUrl(url);
  if (!parsed || parsed.hostname === '') return INERT;
  return { kind: 'elsewhere', href: url };
}

function isSitePath(url: string): boolean {
  // `//host` is scheme-relative: another site.
  if (url.startsWith('//')) return false;
  return parseUrl(url, PROBE_ORIGIN)?.origin === PROBE_ORIGIN;
}

function parseUrl(url: string, base?: string): URL | null {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
}
