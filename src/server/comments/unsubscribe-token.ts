import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of a comment e-mail's unsubscribe link: the user's id and an HMAC-SHA256 of it under
 * the app's auth secret, so the link works without signing in (RFC 8058 one-click) and no one
 * can make one for somebody else. It does not expire: an old e-mail's link must still work.
 */
const PURPOSE = 'comment-mail-unsubscribe';

const signature = (userId: string, secret: string) => createHmac('sha256', secret).update(`${PURPOSE}:${userId}`).digest('base64url');

export function unsubscribeToken(userId: string, secret: string): string {
  return `${Buffer.from(userId).toString('base64url')}.${signature(userId, secret)}`;
}

/** The user the token was made for, or null for anything that is not one of ours. */
export function userOfUnsubscribeToken(token: string, secret: string): string | null {
  const [encodedId, given, extra] = token.split('.');
  if (!encodedId || !given || extra !== undefined) return null;
  const userId = Buffer.from(encodedId, 'base64url').toString('utf8');
  const expected = Buffer.from(signature(userId, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? userId : null;
}
