import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { FormField } from '../../../components/form-field';
import { authTexts } from '../auth-texts';
import { useAuthAction } from '../use-auth-action';
import { useFreshProof } from '../use-fresh-proof';
import { PasswordField } from './auth-fields';
import { ErrorNotice } from './form-notices';

interface Enrolment {
  totpURI: string;
  totpQrSvg: string;
  backupCodes: string[];
}

/** The key of an `otpauth://` URI, in groups of four for typing into an app by hand. */
const keyOf = (uri: string) => (new URL(uri).searchParams.get('secret') ?? '').replace(/(.{4})/g, '$1 ').trim();

/** Ten backup codes, shown once: listed, and downloadable as a text file. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const download = () => {
    const file = new Blob([`Backup codes (each works once):\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(file);
    link.download = 'backup-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <section aria-labelledby="backup-codes-heading">
      <h3 id="backup-codes-heading" className="h6">
        Your backup codes
      </h3>
      <p>Keep these somewhere safe. Each signs you in once if you lose your authenticator app. They are shown only now.</p>
      <ul className="list-unstyled font-monospace row row-cols-2 mb-3" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code} className="col">
            {code}
          </li>
        ))}
      </ul>
      <div className="d-flex gap-2">
        <Button variant="outline-primary" onClick={download}>
          Download backup codes
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </section>
  );
}

/**
 * Settings: an authenticator app (TOTP) through Better Auth's `/api/auth/two-factor/…`
 * endpoints. Turning it on shows a QR code (drawn by the server) and the key, asks for a code,
 * then shows ten backup codes once; turning it off asks for a code.
 */
export function TwoFactorSettings({ enabled, hasPassword }: { enabled: boolean; hasPassword: boolean }) {
  const action = useAuthAction();
  // A password account gives its password with each change; one without proves itself (use-fresh-proof).
  const withFreshProof = useFreshProof({ hasPassword, hasAuthenticator: enabled });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const passwordBody = hasPassword ? { password } : {};

  const start = async (event: FormEvent) => {
    event.preventDefault();
    const result = await action.run(({ authClient, authCall }) => withFreshProof(() => authCall(authClient.twoFactor.enable(passwordBody as { password: string }))));
    if (result) {
      setEnrolment(result as unknown as Enrolment);
      setPassword('');
    }
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!enrolment) return;
    const result = await action.run(({ authClient, authCall }) => authCall(authClient.twoFactor.verifyTotp({ code: code.trim() })));
    if (result) {
      setCodes(enrolment.backupCodes);
      setEnrolment(null);
      setCode('');
    }
  };
  const regenerate = async () => {
    const result = await action.run(({ authClient, authCall }) =>
      withFreshProof(() => authCall(authClient.twoFactor.generateBackupCodes(passwordBody as { password: string }))),
    );
    if (result) {
      setCodes(result.backupCodes);
      setPassword('');
    }
  };
  const turnOff = async (event: FormEvent) => {
    event.preventDefault();
    const result = await action.run(({ authClient, authCall }) =>
      // `code` is ours: the server checks it before the plugin turns two-factor off.
      authCall(authClient.twoFactor.disable({ ...passwordBody, code: code.trim() } as unknown as { password: string })),
    );
    if (result) {
      setCode('');
      setPassword('');
    }
  };
  const passwordField = hasPassword && (
    <PasswordField id="two-factor-password" label="Your current password" value={password} onChange={setPassword} autoComplete="current-password" />
  );

  if (codes) return <BackupCodes codes={codes} onDone={() => setCodes(null)} />;

  if (enrolment) {
    return (
      <Form noValidate onSubmit={(event) => void confirm(event)} aria-label="Confirm your authenticator app">
        <p>Scan this QR code with your authenticator app, or type the key into it. Then enter the 6-digit code it shows.</p>
        <img className="d-block mb-2 border" width={200} height={200} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.totpQrSvg)}`} alt="QR code for your authenticator app" />
        <p>
          Key: <code data-testid="totp-key">{keyOf(enrolment.totpURI)}</code>
        </p>
        <FormField id="two-factor-confirm-code" label="Code from your app" value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        <Button type="submit" disabled={action.pending}>
          Turn on two-factor authentication
        </Button>
        <ErrorNotice message={action.error} />
      </Form>
    );
  }

  if (!enabled) {
    return (
      <Form noValidate onSubmit={(event) => void start(event)} aria-label="Set up an authenticator app">
        <p>Ask for a code from an authenticator app each time you sign in, so a stolen password is not enough. Turning it on signs you out on your other devices.</p>
        {passwordField}
        <Button type="submit" variant="outline-primary" disabled={action.pending}>
          Set up an authenticator app
        </Button>
        <ErrorNotice message={action.error} />
      </Form>
    );
  }

  return (
    <>
      <p className="fw-semibold">Two-factor authentication is on.</p>
      <Form noValidate onSubmit={(event) => void turnOff(event)} aria-label="Turn off two-factor authentication">
        {passwordField}
        <FormField id="two-factor-off-code" label="Code from your app, or a backup code" value={code} onChange={setCode} autoComplete="one-time-code" maxLength={11} />
        <div className="d-flex flex-wrap gap-2">
          <Button type="submit" variant="outline-danger" disabled={action.pending}>
            Turn off two-factor authentication
          </Button>
          <Button variant="outline-secondary" disabled={action.pending} onClick={() => void regenerate()}>
            New backup codes
          </Button>
        </div>
        <ErrorNotice message={action.error} />
      </Form>
      <p className="small text-body-secondary mt-2 mb-0">{authTexts.twoFactor.backupIntro}</p>
    </>
  );
}
