import { emailOTPClient, magicLinkClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { ApiError } from './api-client';
import { useHydrated } from './use-hydrated';

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
  const session = authClient.useSession();
  // Pages arrive rendered for an anonymous visitor: until the browser has hydrated them, the
  // session reads as loading there too, so the first render matches the server's.
  const hydrated = useHydrated();
  return hydrated ? session : { ...session, data: null, isPending: true };
}

/**
 * Makes every screen read the session again. Better Auth does this by itself after the calls
 * it knows change the session; a magic-link sign-in, a password reset and our own account
 * deletion are not among them.
 */
export function refreshSession(): void {
  authClient.$store.notify('$sessionSignal');
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
    throw new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.');
  }
  if (result.error) {
    const { code, message, status, statusText } = result.error;
    throw new ApiError(status, code ?? `HTTP_${status}`, message || statusText || 'Something went wrong. Please try again.');
  }
  return result.data as T;
}
