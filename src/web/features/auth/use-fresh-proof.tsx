import { useCallback } from 'react';
import Form from 'react-bootstrap/Form';
import { FRESH_PROOF_MINUTES, FRESH_PROOF_REQUIRED } from '../../../shared/account-schema';
import { useDialog } from '../../components/message-dialog';
import { ApiError } from '../../lib/api-client';
import { proveFresh } from './api/fresh-proof';

export interface ProofMeans {
  hasPassword: boolean;
  /** An authenticator app is on: its code is a proof too. */
  hasAuthenticator: boolean;
}

/**
 * Runs a change that adds a way into the account (a passkey, an authenticator app, new backup
 * codes). When the server wants a fresh proof first (`FRESH_PROOF_REQUIRED`), a dialog asks for the
 * password or an authenticator code, the server checks it, and the change is tried once more.
 */
export function useFreshProof({ hasPassword, hasAuthenticator }: ProofMeans) {
  const showDialog = useDialog();
  return useCallback(
    async <T,>(change: () => Promise<T>): Promise<T> => {
      try {
        return await change();
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== FRESH_PROOF_REQUIRED) throw err;
        if (!hasPassword && !hasAuthenticator) {
          throw new ApiError(err.status, err.code, `For your safety, sign out and sign in again, then do this within ${FRESH_PROOF_MINUTES} minutes.`);
        }
      }
      // Read when the dialog closes; the dialog's body is rendered once, so its input reports here.
      let answer = '';
      const confirmed = await showDialog({
        title: 'Confirm it is you',
        message: (
          <Form.Group controlId="fresh-proof-answer">
            <p>For your safety, this needs your {hasPassword ? 'password' : 'authenticator app'} first.</p>
            <Form.Label>{hasPassword ? 'Your current password' : 'Code from your authenticator app'}</Form.Label>
            <Form.Control
              type={hasPassword ? 'password' : 'text'}
              autoComplete={hasPassword ? 'current-password' : 'one-time-code'}
              inputMode={hasPassword ? undefined : 'numeric'}
              onChange={(event) => (answer = event.target.value)}
            />
          </Form.Group>
        ),
        okLabel: 'Confirm',
        cancelLabel: 'Cancel',
      });
      if (!confirmed) throw new Error('Nothing was changed.');
      await proveFresh(hasPassword ? { password: answer } : { code: answer.trim() });
      return change();
    },
    [showDialog, hasPassword, hasAuthenticator],
  );
}
