import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { messages } from '../../../../shared/messages';
import { authTexts } from '../auth-texts';
import { useAuthAction } from '../use-auth-action';
import { useSecondStep } from '../use-second-step';
import { EmailField } from './auth-fields';
import { ErrorNotice, MailSentNotice, OutboxNote } from './form-notices';
import type { Credentials } from './password-views';
import { ViewLinks } from './view-links';

type EmailState = Pick<Credentials, 'email' | 'setEmail'>;

function PasswordlessNote() {
  return <p className="form-text mt-3 mb-0">{authTexts.passwordlessNote}</p>;
}

export function MagicLinkView({ email, setEmail }: EmailState) {
  const action = useAuthAction();
  const [emptyEmail, setEmptyEmail] = useState(false);
  const [sent, setSent] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSent(false);
    if (!email.trim()) {
      setEmptyEmail(true);
      return;
    }
    setEmptyEmail(false);
    const result = await action.run(({ authClient, authCall }) => authCall(authClient.signIn.magicLink({ email: email.trim() })));
    if (result) setSent(true);
  };
  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="auth-view-heading">
      <EmailField id="magic-link-email" value={email} onChange={setEmail} invalid={emptyEmail ? authTexts.magicLink.emptyEmail : null} />
      <Button type="submit" className="w-100" disabled={action.pending}>
        {action.pending ? authTexts.magicLink.loading : authTexts.magicLink.button}
      </Button>
      <ViewLinks to={['sign_in', 'verify_otp']} />
      <MailSentNotice message={sent ? messages.magicLinkSent : null} />
      <ErrorNotice message={action.error} />
      <PasswordlessNote />
    </Form>
  );
}

/** E-mail, then 'Send code', then the code from the e-mail. */
export function VerifyOtpView({ email, setEmail }: EmailState) {
  const send = useAuthAction();
  const verify = useAuthAction();
  const secondStep = useSecondStep();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');

  const sendCode = async (event?: FormEvent) => {
    event?.preventDefault();
    const address = email.trim();
    if (!address) {
      send.setError(authTexts.magicLink.emptyEmail);
      return;
    }
    const result = await send.run(({ authClient, authCall }) => authCall(authClient.emailOtp.sendVerificationOtp({ email: address, type: 'sign-in' })));
    if (result) {
      setSentTo(address);
      setCode('');
    }
  };

  const verifyCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!sentTo) return;
    secondStep(await verify.run(({ authClient, authCall }) => authCall(authClient.signIn.emailOtp({ email: sentTo, otp: code.trim() }))));
  };

  if (!sentTo) {
    return (
      <Form noValidate onSubmit={(event) => void sendCode(event)} aria-labelledby="auth-view-heading">
        <EmailField id="otp-email" value={email} onChange={setEmail} invalid={send.error === authTexts.magicLink.emptyEmail ? send.error : null} />
        <Button type="submit" className="w-100" disabled={send.pending}>
          {send.pending ? authTexts.verifyOtp.sending : authTexts.verifyOtp.sendButton}
        </Button>
        <ViewLinks to={['sign_in', 'magic_link']} />
        <ErrorNotice message={send.error === authTexts.magicLink.emptyEmail ? null : send.error} />
        <PasswordlessNote />
      </Form>
    );
  }

  return (
    <Form noValidate onSubmit={(event) => void verifyCode(event)} aria-labelledby="auth-view-heading">
      <p>
        {authTexts.verifyOtp.sent} <span className="text-body-secondary">({sentTo})</span>
      </p>
      <OutboxNote />
      <Form.Group className="mb-3" controlId="otp-code">
        <Form.Label>{authTexts.verifyOtp.codeLabel}</Form.Label>
        <Form.Control
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoFocus
        />
      </Form.Group>
      <Button type="submit" className="w-100" disabled={verify.pending || code.trim().length === 0}>
        {verify.pending ? authTexts.verifyOtp.loading : authTexts.verifyOtp.button}
      </Button>
      <div className="mt-3 d-flex flex-column align-items-center gap-1">
        <Button variant="link" size="sm" onClick={() => void sendCode()} disabled={send.pending}>
          {authTexts.verifyOtp.another}
        </Button>
        <ViewLinks to={['sign_in']} />
      </div>
      <ErrorNotice message={verify.error ?? send.error} />
      <PasswordlessNote />
    </Form>
  );
}
