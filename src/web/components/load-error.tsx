import type { UseQueryResult } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { messages } from '../../shared/messages';
import { errorMessage } from '../lib/api-client';

/** A query that failed: what failed, why, and a Retry button. */
export function LoadError({ what, query }: { what: string; query: Pick<UseQueryResult, 'error' | 'refetch' | 'isFetching'> }) {
  return (
    <Alert variant="danger">
      <p>
        {what} {errorMessage(query.error)}
      </p>
      <Button variant="outline-danger" onClick={() => void query.refetch()} disabled={query.isFetching}>
        {query.isFetching ? messages.loading : 'Retry'}
      </Button>
    </Alert>
  );
}
