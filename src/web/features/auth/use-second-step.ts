import { paths } from '../../../shared/paths';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** What a sign-in answers when the account asks for its second factor: no session yet. */
export const needsSecondStep = (result: unknown): boolean =>
  typeof result === 'object' && result !== null && (result as { twoFactorRedirect?: unknown }).twoFactorRedirect === true;

/**
 * After a sign-in call: when the account has two-factor on, the form moves to its `two_factor`
 * view (and says true); otherwise the session is there and nothing happens here.
 */
export function useSecondStep() {
  const navigate = useNavigate();
  return useCallback(
    (result: unknown): boolean => {
      if (!needsSecondStep(result)) return false;
      void navigate(paths.auth('two_factor'), { replace: true });
      return true;
    },
    [navigate],
  );
}
