import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '../../../../shared/account-schema';
import { authCall, authClient } from '../../../lib/auth-client';

/** Better Auth's change-password: checks the current password; can end every other session. */
export function changePassword({ currentPassword, newPassword, revokeOtherSessions }: ChangePasswordInput) {
  return authCall(authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions }));
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
