import { useCallback, useState } from 'react';
import type * as AuthModule from '../../lib/auth-client';
import { useAuthClient } from '../../lib/session';
import { authErrorMessage } from './auth-texts';

/**
 * One form's submit state: pending while it runs, the error to show under the form if it fails.
 * The action receives Better Auth's client, loaded on the first submit.
 */
export function useAuthAction() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const loadAuth = useAuthClient();
  const run = useCallback(async <T,>(action: (auth: typeof AuthModule) => Promise<T>): Promise<T | undefined> => {
    setPending(true);
    setError(null);
    try {
      return await action(await loadAuth());
    } catch (err) {
      setError(authErrorMessage(err));
      return undefined;
    } finally {
      setPending(false);
    }
  }, [loadAuth]);
  return { pending, error, setError, run };
}
