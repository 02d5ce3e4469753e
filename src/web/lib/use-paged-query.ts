import { hashKey, useQueryClient, useSuspenseQuery, type QueryKey, type UseSuspenseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * One page of a paged list (an answer with `hasMore`), suspending until it is there; the next
 * page is fetched ahead once this one shows, since Next is the likely click. `optionsFor` gives
 * the query of any page of the same list.
 */
export function usePagedQuery<TData extends { hasMore: boolean }, TKey extends QueryKey>(
  page: number,
  optionsFor: (page: number) => UseSuspenseQueryOptions<TData, Error, TData, TKey>,
): TData {
  const { data } = useSuspenseQuery(optionsFor(page));
  const queryClient = useQueryClient();
  const next = data.hasMore ? optionsFor(page + 1) : undefined;
  const nextKey = next && hashKey(next.queryKey);

  useEffect(() => {
    if (next) void queryClient.prefetchQuery(next);
    // `next` is a new object on every render; its key says which page it is.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextKey, queryClient]);

  return data;
}
