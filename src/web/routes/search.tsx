import { useSearchParams } from 'react-router';
import { NoBlogsFound, SearchResults } from '../features/search/components/search-results';

const MAX_PAGE = 1_000_000;

/** `?page=N` when N is a page number; anything else is page 1. */
function pageFromUrl(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1;
}

/** /search?searchTerm=...&page=N : blogs whose title has any of the words, 5 a page. */
export function SearchPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const searchTerm = searchParams.get('searchTerm') ?? '';
  const page = pageFromUrl(searchParams.get('page'));

  const goTo = (next: number) => {
    setSearchParams((params) => {
      const updated = new URLSearchParams(params);
      if (next === 1) updated.delete('page');
      else updated.set('page', String(next));
      return updated;
    });
  };

  return (
    <>
      <h1 className="visually-hidden">Search results</h1>
      {/* A blank term has no words to look for: nothing to ask the server. */}
      {searchTerm.trim() === '' ? <NoBlogsFound /> : <SearchResults searchTerm={searchTerm} page={page} onPageChange={goTo} />}
    </>
  );
}
