import { signedToken, valueOfSignedToken } from '../core/signed-token.js';

/**
 * The token of a comment e-mail's unsubscribe link: the user's id, signed (`auth/signed-token.ts`),
 * so the link works without signing in (RFC 8058 one-click) and no one can make one for somebody else.
 */
const PURPOSE = 'comment-mail-unsubscribe';

export const unsubscribeToken = (userId: string, secret: string): string => signedToken(PURPOSE, userId, secret);

/** The user the token was made for, or null for anything that is not one of ours. */
export const userOfUnsubscribeToken = (token: string, secret: string): string | null => valueOfSignedToken(PURPOSE, token, secret);
