import { paths } from '../../../../shared/paths';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ForgottenPasswordView, SignInView, SignUpView } from './password-views';
import { MagicLinkView, VerifyOtpView } from './passwordless-views';
import { SocialButtons } from './social-buttons';
import { SuccessNotice } from './form-notices';
import { TwoFactorView } from './two-factor-view';
import { FORM_VIEWS, type FormView } from './view-links';

const HEADINGS: Record<FormView, string> = {
  sign_in: 'Sign in',
  sign_up: 'Create an account',
  forgotten_password: 'Reset your password',
  magic_link: 'Sign in with a magic link',
  verify_otp: 'Sign in with a one-time code',
  update_password: 'Choose a new password',
  two_factor: 'Two-factor authentication',
};

/** The spec's one form with its views; the view is in the URL (`?view=`), starting at sign_in. */
export function AuthForm() {
  const [params] = useSearchParams();
  const location = useLocation();
  const requested = params.get('view');
  const view = FORM_VIEWS.find((candidate) => candidate === requested) ?? 'sign_in';
  // Shared by every view, so moving from sign_in to sign_up keeps what was typed.
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const credentials = { email, setEmail, password, setPassword };
  const notice = (location.state as { notice?: string } | null)?.notice;
  // A social provider that failed sends the person back with ?error=.
  const providerError = params.get('error');

  return (
    <div className="mx-auto" style={{ maxWidth: 440 }}>
      <h1 className="h3 mb-1">Login or Register</h1>
      <h2 id="auth-view-heading" className="h5 text-body-secondary mb-4">
        {HEADINGS[view]}
      </h2>
      {providerError && (
        <Alert variant="danger" role="alert">
          Signing in did not work ({providerError}). Please try again.
        </Alert>
      )}
      {(view === 'sign_in' || view === 'sign_up') && <SocialButtons />}
      {/* Keyed by view: a view's own messages reset when it is left. */}
      <div key={view}>
        {view === 'sign_in' && <SignInView {...credentials} />}
        {view === 'sign_up' && <SignUpView {...credentials} />}
        {view === 'forgotten_password' && <ForgottenPasswordView {...credentials} />}
        {view === 'magic_link' && <MagicLinkView {...credentials} />}
        {view === 'verify_otp' && <VerifyOtpView {...credentials} />}
        {view === 'two_factor' && <TwoFactorView />}
        {view === 'update_password' && (
          <p>
            To choose a new password, open the link in your password reset email.{' '}
            <Link to={paths.auth('forgotten_password')}>Ask for a reset email</Link>.
          </p>
        )}
      </div>
      <SuccessNotice message={notice} />
    </div>
  );
}
