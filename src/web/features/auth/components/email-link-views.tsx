import { paths } from '../../../../shared/paths';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';
import { newPasswordPairSchema } from '../../../../shared/account-schema';
import { messages } from '../../../../shared/messages';
import { refreshSession } from '../../../lib/session';
import { authTexts } from '../auth-texts';
import { useAuthAction } from '../use-auth-action';
import { NewPasswordFields, type NewPasswordPair } from './auth-fields';
import { ErrorNotice } from './form-notices';
import { needsSecondStep, useSecondStep } from '../use-second-step';
import { firstErrorPerField } from '../../../lib/field-errors';
import { apiFetch } from '../../../lib/api-client';

/*
 * The e-mailed links open these pages, and only their button spends the token: a mail scanner
 * that opens every link in a message signs nobody in and uses nothing up.
 */

export const LINK_VIEWS = ['confirm_email', 'magic_link_confirm', 'update_password', 'accept_invitation'] as const;
export type LinkView = (typeof LINK_VIEWS)[number];

export function EmailLinkPage({ view, token }: { view: LinkView; token: string }) {
  return (
    <div className="mx-auto" style={{ maxWidth: 440 }}>
      {view === 'confirm_email' && <ConfirmEmail token={token} />}
      {view === 'magic_link_confirm' && <MagicLinkConfirm token={token} />}
      {view === 'update_password' && <UpdatePassword token={token} />}
      {view === 'accept_invitation' && <AcceptInvitation token={token} />}
    </div>
  );
}

function ConfirmEmail({ token }: { token: string }) {
  const action = useAuthAction();
  const secondStep = useSecondStep();
  const navigate = useNavigate();
  const confirm = async () => {
    const result = await action.run(({ authClient, authCall }) => authCall(authClient.verifyEmail({ query: { token } })));
    if (!result || secondStep(result)) return;
    // Signed in by the confirmation: the page shows the welcome screen; else (confirmed before) the sign-in form.
    void navigate(paths.auth('sign_in'), { replace: true, state: { notice: 'Your email address is confirmed.' } });
  };
  return (
    <section aria-labelledby="link-heading">
      <h1 id="link-heading" className="h3 mb-3">Confirm your email address</h1>
      <p>Press the button to confirm your email address and sign in.</p>
      <Button className="w-100" onClick={() => void confirm()} disabled={action.pending}>
        {action.pending ? messages.loading : 'Confirm my email address'}
      </Button>
      <ErrorNotice message={action.error} />
    </section>
  );
}

function MagicLinkConfirm({ token }: { token: string }) {
  const action = useAuthAction();
  const secondStep = useSecondStep();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signIn = async () => {
    const result = await action.run(async ({ authClient, authCall }) => {
      const data: unknown = await authCall(authClient.magicLink.verify({ query: { token } }));
      if (needsSecondStep(data)) return data;
      // A spent or expired link answers with a redirect to an error page, not with a user.
      if (!data || typeof data !== 'object' || !('user' in data)) throw Object.assign(new Error('invalid'), { code: 'INVALID_TOKEN' });
      return data;
    });
    if (!result || secondStep(result)) return;
    refreshSession(queryClient);
    void navigate('/auth', { replace: true });
  };
  return (
    <section aria-labelledby="link-heading">
      <h1 id="link-heading" className="h3 mb-3">Sign in with your magic link</h1>
      <p>Press the button to sign in. The link works once.</p>
      <Button className="w-100" onClick={() => void signIn()} disabled={action.pending}>
        {action.pending ? authTexts.signIn.loading : authTexts.signIn.button}
      </Button>
      <ErrorWithLink error={action.error} to={paths.auth('magic_link')} label={authTexts.magicLink.link} />
    </section>
  );
}

/** The two new-password fields: their values, their errors, and the check before a submit (true when both are right). */
function useNewPasswordPair() {
  const [values, setValues] = useState<NewPasswordPair>({ newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<NewPasswordPair>>({});
  const set = (field: keyof NewPasswordPair) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  const check = () => {
    const parsed = newPasswordPairSchema.safeParse(values);
    setErrors(parsed.success ? {} : firstErrorPerField<keyof NewPasswordPair>(parsed.error));
    return parsed.success;
  };
  return { values, errors, set, check };
}

function UpdatePassword({ token }: { token: string }) {
  const action = useAuthAction();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { values, errors, set, check } = useNewPasswordPair();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    const result = await action.run(({ authClient, authCall }) => authCall(authClient.resetPassword({ newPassword: values.newPassword, token })));
    if (!result) return;
    // The reset ended every session of the account, this browser's too.
    refreshSession(queryClient);
    void navigate(paths.auth('sign_in'), { replace: true, state: { notice: messages.passwordUpdated } });
  };

  return (
    <section aria-labelledby="link-heading">
      <h1 id="link-heading" className="h3 mb-3">Choose a new password</h1>
      <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="link-heading">
        <NewPasswordFields ids={{ newPassword: 'update-password-new', confirmPassword: 'update-password-confirm' }} values={values} onChange={set} errors={errors} />
        <Button type="submit" className="w-100" disabled={action.pending}>
          {action.pending ? authTexts.updatePassword.loading : authTexts.updatePassword.button}
        </Button>
        <ErrorWithLink error={action.error} to={paths.auth('forgotten_password')} label={authTexts.forgottenPassword.link} />
      </Form>
    </section>
  );
}

/**
 * An invitation (issue 44): the page shows the form; only its button spends the token (a POST that
 * makes the account with the invitation's role), then signs in with the password just chosen.
 */
function AcceptInvitation({ token }: { token: string }) {
  const action = useAuthAction();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { values, errors, set, check } = useNewPasswordPair();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    const result = await action.run(async ({ authClient, authCall }) => {
      const { email } = await apiFetch<{ email: string }>('/api/invitations/accept', { method: 'POST', body: JSON.stringify({ token, password: values.newPassword }) });
      return authCall(authClient.signIn.email({ email, password: values.newPassword }));
    });
    if (!result) return;
    refreshSession(queryClient);
    void navigate('/auth', { replace: true });
  };

  return (
    <section aria-labelledby="link-heading">
      <h1 id="link-heading" className="h3 mb-3">Accept your invitation</h1>
      <p>Choose a password for your new account, then press the button. The link works once.</p>
      <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="link-heading">
        <NewPasswordFields ids={{ newPassword: 'invitation-new', confirmPassword: 'invitation-confirm' }} values={values} onChange={set} errors={errors} />
        <Button type="submit" className="w-100" disabled={action.pending}>
          {action.pending ? messages.loading : 'Accept the invitation'}
        </Button>
        <ErrorNotice message={action.error} />
      </Form>
    </section>
  );
}

/** The failure of a link's action, and under it the way to ask for a new link. */
function ErrorWithLink({ error, to, label }: { error: string | null | undefined; to: string; label: string }) {
  return (
    <>
      <ErrorNotice message={error} />
      {error && (
        <p className="mt-3 text-center">
          <Link to={to}>{label}</Link>
        </p>
      )}
    </>
  );
}
