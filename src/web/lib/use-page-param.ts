import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

const MAX_PAGE = 1_000_000;

/** `?page=N` when N is a page number; anything else is page 1. */
export function pageFromUrl(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1;
}

/**
 * The list page kept in the URL (`?page=N`, absent for page 1), so back, forward and reload
 * keep it; other query parameters (such as `searchTerm`) are left as they are.
 */
export function usePageParam(): [page: number, goTo: (page: number) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const goTo = useCallback(
    (next: number) => {
      setSearchParams((params) => {
        const updated = new URLSearchParams(params);
        if (next === 1) updated.delete('page');
        else updated.set('page', String(next));
        return updated;
      });
    },
    [setSearchParams],
  );
  return [pageFromUrl(searchParams.get('page')), goTo];
}
