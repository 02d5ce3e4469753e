import Button from 'react-bootstrap/Button';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { useNotMe } from '../features/auth/api/not-me';
import { errorMessage } from '../lib/api-client';
import { useLinkToken } from '../lib/link-token';
import type { Screen } from '../lib/screen';

/**
 * /not-me?token= : where a new sign-in's e-mail leads. Only its button acts: a mail scanner that
 * opens every link in a message signs no one out.
 */
function NotMePage() {
  const token = useLinkToken();
  const notMe = useNotMe();
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }} aria-labelledby="not-me-heading">
      <h1 id="not-me-heading" className="h3 mb-3">
        A new sign-in to your account
      </h1>
      {notMe.isSuccess ? (
        <p role="status">{notMe.data.message}</p>
      ) : (
        <>
          <p>If you did not sign in from that browser, press the button: it is signed out, and we send you an e-mail with a link to choose a new password.</p>
          <Button variant="danger" disabled={!token || notMe.isPending} onClick={() => notMe.mutate(token)}>
            {notMe.isPending ? messages.loading : 'This wasn’t me'}
          </Button>
          {(notMe.isError || !token) && (
            <p className="text-danger mt-3" role="alert">
              {token ? errorMessage(notMe.error) : 'This link is not complete. Open it from the e-mail again, or change your password in Settings.'}
            </p>
          )}
        </>
      )}
    </section>
  );
}

export const notMeScreen: Screen = {
  cache: 'never',
  Component: NotMePage,
  // The canonical path leaves the token out: it is the reader's own.
  meta: () => ({ title: 'A new sign-in', description: 'Sign out a browser you do not recognise.', path: paths.notMe('') }),
};
