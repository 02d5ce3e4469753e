import { queryOptions, useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiFetch } from './api-client';

/**
 * A GET of one endpoint that answers for the signed-in user. The caller's `queryKey` must name the
 * user (every caller's key holds the user's id), so a different sign-in never sees the previous
 * one's answer.
 */
export function signedInQueryOptions<TData>(queryKey: QueryKey, path: string) {
  return queryOptions({ queryKey, queryFn: ({ signal }) => apiFetch<TData>(path, { signal }) });
}

/**
 * A mutation that sends its input to one endpoint as JSON. `onSuccess` gets the query client with
 * the answer and the input, to update or refetch what the change touched.
 */
export function useJsonMutation<TInput, TResult = void>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  onSuccess?: (queryClient: QueryClient, result: TResult, input: TInput) => unknown,
) {
  const queryClient = useQueryClient();
  return useMutation<TResult, Error, TInput>({
    mutationFn: (input) => apiFetch<TResult>(path, { method, body: JSON.stringify(input) }),
    onSuccess: onSuccess && ((result, input) => onSuccess(queryClient, result, input)),
  });
}
