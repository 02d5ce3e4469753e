import { paths } from '../../../../shared/paths';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import { FRESH_SESSION_MINUTES } from '../../../../shared/account-schema';
import { messages } from '../../../../shared/messages';
import { confirmIrreversible, useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useAuthClient } from '../../../lib/session';
import { useDeleteAccount } from '../api/delete-account';
import { ErrorNotice } from './form-notices';

/** Delete Account, behind a confirmation that asks for the password (when the account has one). */
export function DeleteAccountSection({ userId, hasPassword }: { userId: string; hasPassword: boolean }) {
  const showDialog = useDialog();
  const navigate = useNavigate();
  const loadAuth = useAuthClient();
  const remove = useDeleteAccount(userId);
  const [error, setError] = useState<string | null>(null);

  const confirmAndDelete = async () => {
    setError(null);
    // Read when the dialog closes; the dialog's body is rendered once, so its input reports here.
    let password = '';
    const confirmed = await showDialog(
      confirmIrreversible(
        'Delete Account',
        <>
          <p>This permanently deletes your account with all your blogs, votes and images. It cannot be undone.</p>
          {hasPassword ? (
            <Form.Group controlId="delete-account-password">
              <Form.Label>Password</Form.Label>
              <Form.Control type="password" autoComplete="current-password" onChange={(event) => (password = event.target.value)} />
            </Form.Group>
          ) : (
            <p className="mb-0">Your account has no password: this works within {FRESH_SESSION_MINUTES} minutes of signing in.</p>
          )}
        </>,
        'Delete Account',
      ),
    );
    if (!confirmed) return;
    try {
      await remove.mutateAsync(hasPassword ? { password } : {});
    } catch (err) {
      // DESIGN.md: a failed deletion shows its error, and no success popup.
      setError(errorMessage(err));
      return;
    }
    // The server has ended the session; this clears the cookie too (the other tabs heard it from refreshSession).
    await loadAuth()
      .then(({ authClient }) => authClient.signOut())
      .catch(() => undefined);
    await showDialog({ title: messages.accountDeleted, message: 'Your account and everything in it have been deleted.' });
    void navigate(paths.home());
  };

  return (
    <>
      <p>Deleting your account removes your blogs, votes and images for good.</p>
      <Button variant="danger" onClick={() => void confirmAndDelete()} disabled={remove.isPending}>
        {remove.isPending ? messages.loading : 'Delete Account'}
      </Button>
      <ErrorNotice message={error} />
    </>
  );
}
