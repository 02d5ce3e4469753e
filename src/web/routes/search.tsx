import { useSearchParams } from 'react-router';
import { NoBlogsFound, SearchResults } from '../features/search/components/search-results';
import { usePageParam } from '../lib/use-page-param';

/** /search?searchTerm=...&page=N : blogs whose title has any of the words, 5 a page. */
export function SearchPage() {
  const [searchParams] = useSearchParams();
  const searchTerm = searchParams.get('searchTerm') ?? '';
  const [page, goTo] = usePageParam();


  return (
    <>
      <h1 className="visually-hidden">Search results</h1>
      {/* A blank term has no words to look for: nothing to ask the server. */}
      {searchTerm.trim() === '' ? <NoBlogsFound /> : <SearchResults searchTerm={searchTerm} page={page} onPageChange={goTo} />}
    </>
  );
}
