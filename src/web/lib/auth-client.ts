import { emailOTPClient, magicLinkClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

/** Better Auth's client, talking to /api/auth on our own origin. */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [magicLinkClient(), emailOTPClient()],
});

/**
 * The one way screens read the session. Better Auth's store notifies every subscriber
 * when the session changes (sign-in, sign-out), so all open screens follow without a reload.
 */
export function useSession() {
  return authClient.useSession();
}
