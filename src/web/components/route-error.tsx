import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { isRouteErrorResponse, useMatches, useRevalidator, useRouteError } from 'react-router';
import { messages } from '../../shared/messages';
import { errorMessage } from '../lib/api-client';
import type { RouteErrorBody } from '../lib/load-query';
import type { Screen } from '../lib/screen';
import { NotFoundPage } from './not-found-page';

type ErrorHandle = Pick<Screen, 'loadError' | 'NotFound'>;

function messageOf(error: unknown): string {
  if (isRouteErrorResponse(error)) return (error.data as Partial<RouteErrorBody> | undefined)?.message ?? `${error.status} ${error.statusText}`;
  return errorMessage(error);
}

/**
 * The error element of every route. A 404 shows the route's own not-found screen ('This blog
 * does not exist', or the app's 'The Page you are looking for does not exist'); any other
 * failure says what could not be loaded and why, with Retry, which runs the loaders again.
 */
export function RouteError() {
  const error = useRouteError();
  const matches = useMatches();
  const revalidator = useRevalidator();
  const handle = matches.at(-1)?.handle as ErrorHandle | undefined;

  if (isRouteErrorResponse(error) && error.status === 404) {
    const NotFound = handle?.NotFound ?? NotFoundPage;
    return <NotFound />;
  }
  const retrying = revalidator.state === 'loading';
  return (
    <Alert variant="danger">
      <p>
        {handle?.loadError ?? 'Something went wrong.'} {messageOf(error)}
      </p>
      <Button variant="outline-danger" onClick={() => void revalidator.revalidate()} disabled={retrying}>
        {retrying ? messages.loading : 'Retry'}
      </Button>
    </Alert>
  );
}
