import { passkeyClient } from '@better-auth/passkey/client';
import { emailOTPClient, magicLinkClient, twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/client';
import { ApiError, NETWORK_ERROR_MESSAGE } from './api-client';

/**
 * Better Auth's client, talking to /api/auth on our own origin. Loaded on demand (see
 * `useAuthClient` in ./session): screens read the session through `useSession` instead.
 */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  // The second step of a sign-in is the form's own view (`two_factor`): no redirect of the plugin's.
  plugins: [magicLinkClient(), emailOTPClient(), twoFactorClient(), passkeyClient()],
});

/**
 * Calls `listener` after each Better Auth call that changes the session (sign-in, sign-up,
 * sign-out). A magic-link sign-in, a password reset and our own account deletion are not among
 * them: those call `refreshSession` themselves.
 */
export function onSessionSignal(listener: () => void): void {
  let first = true;
  // Nano Stores' subscribe calls the listener at once with the current value; that is no change.
  authClient.$store.listen('$sessionSignal', () => {
    if (first) first = false;
    else listener();
  });
}

interface AuthClientError {
  code?: string;
  message?: string;
  status: number;
  statusText: string;
}

/** A Better Auth client call as a plain promise: its data, or an `ApiError` with the server's message. */
export async function authCall<T>(request: Promise<{ data: T; error: null } | { data: null; error: AuthClientError }>): Promise<T> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch {
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE);
  }
  if (result.error) {
    const { code, message, status, statusText } = result.error;
    throw new ApiError(status, code ?? `HTTP_${status}`, message || statusText || 'Something went wrong. Please try again.');
  }
  return result.data as T;
}
