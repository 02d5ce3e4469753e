import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { apiFetch } from './api-client';
import type * as AuthModule from './auth-client';
import { useHydrated } from './use-hydrated';

/** What `GET /api/auth/get-session` answers for a signed-in browser (null when signed out). */
export interface Session {
  user: { id: string; email: string; name: string; twoFactorEnabled?: boolean | null };
  /** A staff account that must set up a second factor before anything else (`STAFF_REQUIRE_SECOND_FACTOR`). */
  secondFactorRequired?: boolean;
}

const SESSION_CHANNEL = 'blog-session';

export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: () => apiFetch<Session | null>('/api/auth/get-session'),
});

/**
 * The one way screens read the session: a small query of Better Auth's session endpoint, so the
 * pages that only show who is signed in do not load Better Auth's client. A signed-in reader's
 * reading pages arrive rendered with their session (it travels in the page's query cache), so it
 * is known from the first render, on the server and in the browser alike. Other pages arrive
 * rendered for an anonymous visitor: until the browser has hydrated them, the session reads as
 * loading there too, so the first render matches the server's.
 */
export function useSession(): { data: Session | null; isPending: boolean } {
  const hydrated = useHydrated();
  const { data, isPending } = useQuery({ ...sessionQueryOptions, enabled: hydrated });
  if (data !== undefined) return { data, isPending: false };
  return hydrated ? { data: null, isPending } : { data: null, isPending: true };
}

/** Makes every screen of this tab, and the other open tabs, read the session again. */
export function refreshSession(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: sessionQueryOptions.queryKey });
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/** Follows sign-ins and sign-outs made in the other tabs (the layout runs it once). */
export function useSessionAcrossTabs(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.onmessage = () => void queryClient.invalidateQueries({ queryKey: sessionQueryOptions.queryKey });
    return () => channel.close();
  }, [queryClient]);
}

let authModule: Promise<typeof AuthModule> | undefined;

/**
 * Loads Better Auth's client on first use: only the screens that sign in, sign out or change
 * the account run it. Each of its calls that changes the session refreshes the session query.
 */
export function useAuthClient(): () => Promise<typeof AuthModule> {
  const queryClient = useQueryClient();
  return useCallback(() => {
    authModule ??= import('./auth-client').then((module) => {
      module.onSessionSignal(() => refreshSession(queryClient));
      return module;
    });
    return authModule;
  }, [queryClient]);
}
