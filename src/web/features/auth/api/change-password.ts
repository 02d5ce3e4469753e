import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '../../../../shared/account-schema';
import { useAuthClient } from '../../../lib/session';

/** Better Auth's change-password: checks the current password; can end every other session. */
export function useChangePassword() {
  const loadAuth = useAuthClient();
  return useMutation({
    mutationFn: async ({ currentPassword, newPassword, revokeOtherSessions }: ChangePasswordInput) => {
      const { authCall, authClient } = await loadAuth();
      return authCall(authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions }));
    },
  });
}
