import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { messages } from '../../shared/messages';
import { useSearchParams } from 'react-router';
import { LoadingPage } from '../components/loading-page';
import { AuthForm } from '../features/auth/components/auth-form';
import { AuthWelcome } from '../features/auth/components/auth-welcome';
import { EmailLinkPage, LINK_VIEWS } from '../features/auth/components/email-link-views';
import { useSession } from '../lib/session';
import { paths } from '../../shared/paths';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

const REFUSED_SIGN_UPS: Record<string, string> = {
  REGISTRATION_CLOSED: messages.registrationClosed,
  REGISTRATION_BY_INVITATION: messages.registrationByInvitation,
};

/**
 * /auth: the e-mailed links' pages (whoever is signed in), else the welcome screen for a
 * signed-in user, else the sign-in form.
 */
function AuthPage() {
  const [params] = useSearchParams();
  const { data: session, isPending } = useSession();
  // The spinner is for the first load only: later reads of the session (after a sign-up or a
  // failed sign-in) keep the form and what was typed.
  const [loadedOnce, setLoadedOnce] = useState(!isPending);
  if (!isPending && !loadedOnce) setLoadedOnce(true);
  const requested = params.get('view');
  const token = params.get('token');
  const linkView = LINK_VIEWS.find((view) => view === requested);

  if (linkView && token) return <EmailLinkPage view={linkView} token={token} />;
  if (isPending && !loadedOnce) return <LoadingPage />;
  if (session) return <AuthWelcome email={session.user.email} />;
  // A social provider's sign-up refused by the site's registration (issue 44) comes back here with its code.
  const refused = REFUSED_SIGN_UPS[params.get('error') ?? ''];
  return (
    <>
      {refused && (
        <Alert variant="danger" className="mx-auto" style={{ maxWidth: 440 }}>
          {refused}
        </Alert>
      )}
      <AuthForm />
    </>
  );
}

export const authScreen: Screen = {
  cache: 'never',
  Component: AuthPage,
  meta: () => ({ title: 'Login or Register', description: SITE_DESCRIPTION, path: paths.auth() }),
};
