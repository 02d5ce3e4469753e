import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * One cache per browser tab, and one per server render (never shared between visitors). The
 * server does not retry: a failing page answers at once with its error status.
 */
export function createQueryClient({ server = false } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not change on retry; network blips and 5xx may.
        retry: server ? false : (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      },
    },
  });
}
