import type { QueryClient, FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import { data, type LoaderFunction } from 'react-router';
import { ApiError } from './api-client';

/** The body of a route error response: the API's message, for the route's error element. */
export interface RouteErrorBody {
  message: string;
}

/**
 * A loader's data: from the cache when there, else fetched. An API error becomes a route error
 * response with the API's status (404 stays 404 on the server's answer too) and its message.
 */
export async function loadQuery<TData, TKey extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<TData, Error, TData, TKey>,
): Promise<TData> {
  try {
    return await queryClient.ensureQueryData(options);
  } catch (err) {
    if (err instanceof ApiError) throw routeError(err.status === 0 ? 503 : err.status, err.message);
    throw err;
  }
}

/**
 * A screen's loader that loads the one query its URL names (as `loadQuery` does). `queryOf` may
 * throw a route error instead, when the URL names nothing.
 */
export function queryLoader<TData, TKey extends QueryKey>(queryOf: (url: URL) => FetchQueryOptions<TData, Error, TData, TKey>) {
  return (queryClient: QueryClient): LoaderFunction =>
    async ({ request }) => {
      await loadQuery(queryClient, queryOf(new URL(request.url)));
      return null;
    };
}

export function routeError(status: number, message: string) {
  return data<RouteErrorBody>({ message }, { status, statusText: STATUS_TEXT[status] ?? 'Error' });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
