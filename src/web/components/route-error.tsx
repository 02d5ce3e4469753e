import Alert from 'react-bootstrap/Alert';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { errorMessage } from '../lib/api-client';

/** The error boundary of every route: says what went wrong and offers a way on. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <Alert variant="danger" className="mt-3">
      <Alert.Heading as="h1" className="h4">Something went wrong</Alert.Heading>
      <p>{message}</p>
      <Link to="/" reloadDocument>Go to the home page</Link>
    </Alert>
  );
}
