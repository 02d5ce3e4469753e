import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { signedInQueryOptions } from '../../../lib/api-hooks';

/** An app holding a token for the account (Settings' 'Apps'). */
export interface ConnectedApp {
  id: string;
  clientId: string;
  name: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** An authorization request as the consent screen shows it. */
export interface AuthorizationConsent {
  client: { id: string; name: string };
  redirectUri: string;
  me: string;
  scopes: string[];
}

const APPS_PATH = '/api/account/apps';
const appsKey = (userId: string) => ['account-apps', userId];

export function useConnectedApps(userId: string) {
  return useQuery(signedInQueryOptions<{ items: ConnectedApp[] }>(appsKey(userId), APPS_PATH));
}

export function useRevokeApp(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`${APPS_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appsKey(userId) }),
  });
}

/** The request the app sent, checked by the server (the app's name from its page). */
export function useAuthorizationConsent(userId: string, query: string) {
  return useQuery({ ...signedInQueryOptions<AuthorizationConsent>(['indieauth-consent', userId, query], `/api/indieauth/authorization?${query}`), retry: false, refetchOnWindowFocus: false });
}

/** 'Allow' or 'Deny': the server answers where the browser goes next (the app's redirect URI). */
export function useAuthorizationDecision() {
  return useMutation({
    mutationFn: (input: Record<string, unknown>) => apiFetch<{ location: string }>('/api/indieauth/authorization', { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: ({ location }) => window.location.assign(location),
  });
}
