import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSession } from '../../../../shared/account-schema';
import { apiFetch } from '../../../lib/api-client';
import { signedInQueryOptions } from '../../../lib/api-hooks';

const SESSIONS_PATH = '/api/account/sessions';
const sessionsKey = (userId: string) => ['account-sessions', userId];

/** Where the account is signed in (Settings). */
export function useAccountSessions(userId: string) {
  return useQuery(signedInQueryOptions<{ items: AccountSession[] }>(sessionsKey(userId), SESSIONS_PATH));
}

/** Ends one session; the list is fetched again. */
export function useEndSession(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`${SESSIONS_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey(userId) }),
  });
}

/** Ends every session but this browser's; the list is fetched again. */
export function useEndOtherSessions(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ ended: number }>(`${SESSIONS_PATH}/end-others`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey(userId) }),
  });
}
