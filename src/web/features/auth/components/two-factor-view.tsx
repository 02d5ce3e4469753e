import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { refreshSession } from '../../../lib/session';
import { authTexts } from '../auth-texts';
import { useAuthAction } from '../use-auth-action';
import { ErrorNotice } from './form-notices';
import { PasskeySignIn } from './passkey-sign-in';
import { ViewLinks } from './view-links';

/**
 * The second step of a sign-in (two-factor on): a code from the authenticator app, or a backup
 * code, or a passkey. The pending sign-in lives in a cookie for 10 minutes; after that, or after
 * too many wrong codes, the person signs in again.
 */
export function TwoFactorView() {
  const action = useAuthAction();
  const queryClient = useQueryClient();
  const [useBackup, setUseBackup] = useState(false);
  const [code, setCode] = useState('');
  const texts = authTexts.twoFactor;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const entered = code.trim();
    if (!entered) {
      action.setError(texts.emptyCode);
      return;
    }
    const result = await action.run(({ authClient, authCall }) =>
      authCall(useBackup ? authClient.twoFactor.verifyBackupCode({ code: entered }) : authClient.twoFactor.verifyTotp({ code: entered })),
    );
    // Signed in: the page turns into the welcome screen.
    if (result) refreshSession(queryClient);
  };

  return (
    <>
      <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="auth-view-heading">
        <p>{useBackup ? texts.backupIntro : texts.intro}</p>
        <Form.Group className="mb-3" controlId="two-factor-code">
          <Form.Label>{useBackup ? texts.backupLabel : texts.codeLabel}</Form.Label>
          <Form.Control
            key={useBackup ? 'backup' : 'totp'}
            inputMode={useBackup ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            maxLength={useBackup ? 11 : 6}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoFocus
          />
        </Form.Group>
        <Button type="submit" className="w-100" disabled={action.pending}>
          {action.pending ? authTexts.verifyOtp.loading : texts.button}
        </Button>
        <div className="mt-2 text-center">
          <Button
            variant="link"
            size="sm"
            onClick={() => {
              setUseBackup(!useBackup);
              setCode('');
              action.setError(null);
            }}
          >
            {useBackup ? texts.useApp : texts.useBackup}
          </Button>
        </div>
        <ErrorNotice message={action.error} />
      </Form>
      <PasskeySignIn />
      <ViewLinks to={['sign_in']} />
    </>
  );
}
