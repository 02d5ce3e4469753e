import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A token that names a value (a user's or a subscription's id) and proves the app made it: the
 * value and an HMAC-SHA256 of it for one purpose under the app's auth secret. E-mail links carry
 * them, so they work without signing in and no one can make one for somebody else; a token of one
 * purpose is worth nothing for another. They do not expire: an old e-mail's link must still work.
 */
const signature = (purpose: string, value: string, secret: string) => createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url');

export function signedToken(purpose: string, value: string, secret: string): string {
  return `${Buffer.from(value).toString('base64url')}.${signature(purpose, value, secret)}`;
}

/** The value the token was made for, or null for anything that is not one of ours for this purpose. */
export function valueOfSignedToken(purpose: string, token: string, secret: string): string | null {
  const [encoded, given, extra] = token.split('.');
  if (!encoded || !given || extra !== undefined) return null;
  const value = Buffer.from(encoded, 'base64url').toString('utf8');
  const expected = Buffer.from(signature(purpose, value, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? value : null;
}
