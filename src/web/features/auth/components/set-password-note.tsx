import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { authTexts } from '../auth-texts';
import { useAuthAction } from '../use-auth-action';
import { ErrorNotice, MailSentNotice } from './form-notices';

/** Accounts made by a magic link or a code have no password; a reset link sets one. */
export function SetPasswordNote({ email }: { email: string }) {
  const action = useAuthAction();
  const [sent, setSent] = useState(false);
  const send = async () => {
    const result = await action.run(({ authClient, authCall }) => authCall(authClient.requestPasswordReset({ email })));
    if (result) setSent(true);
  };
  return (
    <>
      <p>You sign in with a magic link or a code, so your account has no password yet. We can email you a link to set one.</p>
      <Button variant="outline-primary" onClick={() => void send()} disabled={action.pending}>
        Email me a link to set a password
      </Button>
      <MailSentNotice message={sent ? authTexts.forgottenPassword.confirmation : null} />
      <ErrorNotice message={action.error} />
    </>
  );
}
