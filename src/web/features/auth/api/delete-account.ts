import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteAccountInput } from '../../../../shared/account-schema';
import { apiFetch } from '../../../lib/api-client';
import { refreshSession } from '../../../lib/session';
import { accountQueryOptions } from './get-account';

export function deleteAccount(input: DeleteAccountInput) {
  return apiFetch<void>('/api/account', { method: 'DELETE', body: JSON.stringify(input) });
}

/** The server ends every session with the account; every screen then reads the session again. */
export function useDeleteAccount(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: accountQueryOptions(userId).queryKey });
      refreshSession(queryClient);
    },
  });
}
