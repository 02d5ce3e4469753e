import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { messages } from '../../../../shared/messages';
import { paths } from '../../../../shared/paths';
import { errorMessage } from '../../../lib/api-client';
import { useUnsubscribe } from '../api/unsubscribe';

/**
 * The page an e-mail's unsubscribe link opens. Only its button unsubscribes: a mail scanner that
 * opens every link in a message changes nothing (mail programs use the one-click POST instead).
 */
export function UnsubscribeCard({ token }: { token: string }) {
  const unsubscribe = useUnsubscribe();
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }} aria-labelledby="unsubscribe-heading">
      <h1 id="unsubscribe-heading" className="h3 mb-3">
        E-mails about comments
      </h1>
      {unsubscribe.isSuccess ? (
        <p role="status">
          You will no longer get e-mails about comments and replies. You can turn them on again in{' '}
          <Link to={paths.settings()}>Settings</Link>.
        </p>
      ) : (
        <>
          <p>Press the button to stop e-mails about comments on your blogs and replies to your comments.</p>
          <Button disabled={!token || unsubscribe.isPending} onClick={() => unsubscribe.mutate(token)}>
            {unsubscribe.isPending ? messages.loading : 'Unsubscribe'}
          </Button>
          {(unsubscribe.isError || !token) && (
            <p className="text-danger mt-3" role="alert">
              {token ? errorMessage(unsubscribe.error) : 'This unsubscribe link is not complete. You can turn e-mails about comments off in Settings.'}
            </p>
          )}
        </>
      )}
    </section>
  );
}
