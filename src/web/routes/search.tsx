import Form from 'react-bootstrap/Form';
import { useNavigate, useNavigation, useSearchParams } from 'react-router';
import type { SearchIn } from '../../shared/blog-schema';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { Pager } from '../components/pager';
import { BlogCard } from '../features/blogs/components/blog-card';
import { searchBlogsQueryOptions } from '../features/search/api/search-blogs';
import { loadQuery } from '../lib/load-query';
import { usePagedQuery } from '../lib/use-paged-query';
import { LIST_SCREEN_FOR_THE_VIEWER, type Screen } from '../lib/screen';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

/** `?in=all` is 'Search in text too'; anything else is the spec's search of titles. */
const searchInFromUrl = (value: string | null): SearchIn => (value === 'all' ? 'all' : 'title');

const searchOf = (url: URL) => ({
  searchTerm: url.searchParams.get('searchTerm') ?? '',
  page: pageFromUrl(url.searchParams.get('page')),
  searchIn: searchInFromUrl(url.searchParams.get('in')),
});

/**
 * /search?searchTerm=...&page=N : blogs whose title has any of the words, 5 a page; with
 * `&in=all`, blogs whose title or text matches, with a snippet of the text around the words.
 */
function SearchPage() {
  const [searchParams] = useSearchParams();
  const searchTerm = searchParams.get('searchTerm') ?? '';
  const searchIn = searchInFromUrl(searchParams.get('in'));
  const [page, goTo] = usePageParam();
  return (
    <>
      <h1 className="visually-hidden">Search results</h1>
      <SearchInTextSwitch searchTerm={searchTerm} searchIn={searchIn} />
      {/* A blank term has no words to look for: nothing to ask the server. */}
      {searchTerm.trim() === '' ? (
        <NoBlogsFound />
      ) : (
        <SearchResults searchTerm={searchTerm} searchIn={searchIn} page={page} onPageChange={goTo} />
      )}
    </>
  );
}

/**
 * 'Search in text too': the same term searched in titles and texts (`&in=all`), from page 1. While
 * the other search loads, the switch already shows where it is going.
 */
function SearchInTextSwitch({ searchTerm, searchIn }: { searchTerm: string; searchIn: SearchIn }) {
  const navigate = useNavigate();
  const pending = useNavigation().location;
  const shown = pending?.pathname === paths.search('') ? searchInFromUrl(new URLSearchParams(pending.search).get('in')) : searchIn;
  return (
    <Form.Check
      type="switch"
      role="switch"
      id="search-in-text"
      className="mb-3"
      label="Search in text too"
      checked={shown === 'all'}
      onChange={(event) => void navigate(paths.search(searchTerm, 1, event.target.checked ? 'all' : undefined))}
    />
  );
}

/**
 * 'No Blogs Found' or '{n} blogs matched the search term {term}' and a card per blog. The term is
 * rendered as text, so markup in it is shown, never run; so are the snippets' words.
 */
function SearchResults({ searchTerm, searchIn, page, onPageChange }: { searchTerm: string; searchIn: SearchIn; page: number; onPageChange: (page: number) => void }) {
  const results = usePagedQuery(page, (at) => searchBlogsQueryOptions(searchTerm, at, searchIn));

  if (results.total === 0) return <NoBlogsFound />;
  return (
    <>
      <p role="status" className="h5 mb-4 search-summary">
        {results.total} blogs matched the search term {searchTerm}
      </p>
      {results.items.length === 0 ? (
        <p>There are no blogs on this page.</p>
      ) : (
        results.items.map((blog, index) => <BlogCard key={blog.id} blog={blog} priority={index === 0} snippet={blog.snippet} />)
      )}
      <Pager page={page} hasMore={results.hasMore} onPageChange={onPageChange} />
    </>
  );
}

function NoBlogsFound() {
  return (
    <p role="status" className="h5">
      {messages.noBlogsFound}
    </p>
  );
}

export const searchScreen: Screen = {
  ...LIST_SCREEN_FOR_THE_VIEWER,
  Component: SearchPage,
  loader: (queryClient) => async ({ request }) => {
    const { searchTerm, page, searchIn } = searchOf(new URL(request.url));
    if (searchTerm.trim() !== '') await loadQuery(queryClient, searchBlogsQueryOptions(searchTerm, page, searchIn));
    return null;
  },
  meta: ({ url }) => {
    const { searchTerm, page, searchIn } = searchOf(url);
    const inText = searchIn === 'all';
    return {
      title: searchTerm.trim() ? `${inText ? 'Search in text' : 'Search'}: ${searchTerm}` : 'Search',
      description: searchTerm.trim()
        ? `Blogs whose ${inText ? 'title or text' : 'title'} matches ${searchTerm}.`
        : `Search blogs by ${inText ? 'title and text' : 'title'}.`,
      path: paths.search(searchTerm, page, searchIn),
    };
  },
  loadError: 'The search could not be run.',
};
