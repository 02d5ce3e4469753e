import type { DeleteAccountInput } from '../../../../shared/account-schema';
import { useJsonMutation } from '../../../lib/api-hooks';
import { refreshSession } from '../../../lib/session';
import { accountKey } from './get-account';

/** The server ends every session with the account; every screen then reads the session again. */
export function useDeleteAccount(userId: string) {
  return useJsonMutation<DeleteAccountInput>('DELETE', '/api/account', (queryClient) => {
    queryClient.removeQueries({ queryKey: accountKey(userId) });
    refreshSession(queryClient);
  });
}
