import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { authTexts } from '../auth-texts';
import { useAuthAction } from '../use-auth-action';
import { EmailField, PasswordField } from './auth-fields';
import { ErrorNotice, MailSentNotice } from './form-notices';
import { ViewLinks } from './view-links';
import { PasskeySignIn } from './passkey-sign-in';
import { useSecondStep } from '../use-second-step';

/** What the sign-in and sign-up views share, so moving between them keeps what was typed. */
export interface Credentials {
  email: string;
  setEmail: (value: string) => void;
  password: string;
  setPassword: (value: string) => void;
}

export function SignInView({ email, setEmail, password, setPassword }: Credentials) {
  const action = useAuthAction();
  const secondStep = useSecondStep();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // On success the session is read again and the page turns into the welcome screen; with
    // two-factor on, the form asks for the code first.
    secondStep(await action.run(({ authClient, authCall }) => authCall(authClient.signIn.email({ email, password }))));
  };
  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="auth-view-heading">
      <EmailField id="sign-in-email" value={email} onChange={setEmail} passkeyAutofill />
      <PasswordField id="sign-in-password" label={authTexts.signIn.passwordLabel} value={password} onChange={setPassword} autoComplete="current-password" />
      <Button type="submit" className="w-100" disabled={action.pending}>
        {action.pending ? authTexts.signIn.loading : authTexts.signIn.button}
      </Button>
      <PasskeySignIn autofill />
      <ViewLinks to={['forgotten_password', 'sign_up', 'magic_link', 'verify_otp']} />
      <ErrorNotice message={action.error} />
    </Form>
  );
}

export function SignUpView({ email, setEmail, password, setPassword }: Credentials) {
  const action = useAuthAction();
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setConfirmation(null);
    const result = await action.run(({ authClient, authCall }) => authCall(authClient.signUp.email({ email, password, name: email.split('@')[0] ?? '' })));
    // A user but no session: the address must be confirmed first (otherwise the page moves on, signed in).
    if (result && !result.token) setConfirmation(authTexts.signUp.confirmation);
  };
  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="auth-view-heading">
      <EmailField id="sign-up-email" value={email} onChange={setEmail} />
      <PasswordField id="sign-up-password" label={authTexts.signUp.passwordLabel} value={password} onChange={setPassword} autoComplete="new-password" />
      <Button type="submit" className="w-100" disabled={action.pending}>
        {action.pending ? authTexts.signUp.loading : authTexts.signUp.button}
      </Button>
      <ViewLinks to={['sign_in', 'magic_link']} />
      <MailSentNotice message={confirmation} />
      <ErrorNotice message={action.error} />
    </Form>
  );
}

export function ForgottenPasswordView({ email, setEmail }: Pick<Credentials, 'email' | 'setEmail'>) {
  const action = useAuthAction();
  const [sent, setSent] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSent(false);
    // The answer is the same whether or not the address has an account.
    const result = await action.run(({ authClient, authCall }) => authCall(authClient.requestPasswordReset({ email })));
    if (result) setSent(true);
  };
  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="auth-view-heading">
      <EmailField id="forgotten-password-email" value={email} onChange={setEmail} />
      <Button type="submit" className="w-100" disabled={action.pending}>
        {action.pending ? authTexts.forgottenPassword.loading : authTexts.forgottenPassword.button}
      </Button>
      <ViewLinks to={['sign_in']} />
      <MailSentNotice message={sent ? authTexts.forgottenPassword.confirmation : null} />
      <ErrorNotice message={action.error} />
    </Form>
  );
}
