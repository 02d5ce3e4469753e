import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { Pager } from '../components/pager';
import { BlogCard } from '../features/blogs/components/blog-card';
import { searchBlogsQueryOptions } from '../features/search/api/search-blogs';
import { loadQuery } from '../lib/load-query';
import type { Screen } from '../lib/screen';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

const searchOf = (url: URL) => ({ searchTerm: url.searchParams.get('searchTerm') ?? '', page: pageFromUrl(url.searchParams.get('page')) });

/** /search?searchTerm=...&page=N : blogs whose title has any of the words, 5 a page. */
function SearchPage() {
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

/**
 * 'No Blogs Found' or '{n} blogs matched the search term {term}' and a card per blog. The term is
 * rendered as text, so markup in it is shown, never run.
 */
function SearchResults({ searchTerm, page, onPageChange }: { searchTerm: string; page: number; onPageChange: (page: number) => void }) {
  const { data: results } = useSuspenseQuery(searchBlogsQueryOptions(searchTerm, page));
  const queryClient = useQueryClient();

  useEffect(() => {
    if (results.hasMore) void queryClient.prefetchQuery(searchBlogsQueryOptions(searchTerm, page + 1));
  }, [results.hasMore, page, searchTerm, queryClient]);

  if (results.total === 0) return <NoBlogsFound />;
  return (
    <>
      <p role="status" className="h5 mb-4 search-summary">
        {results.total} blogs matched the search term {searchTerm}
      </p>
      {results.items.length === 0 ? <p>There are no blogs on this page.</p> : results.items.map((blog, index) => <BlogCard key={blog.id} blog={blog} priority={index === 0} />)}
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
  Component: SearchPage,
  loader: (queryClient) => async ({ request }) => {
    const { searchTerm, page } = searchOf(new URL(request.url));
    if (searchTerm.trim() !== '') await loadQuery(queryClient, searchBlogsQueryOptions(searchTerm, page));
    return null;
  },
  meta: ({ url }) => {
    const { searchTerm, page } = searchOf(url);
    return {
      title: searchTerm.trim() ? `Search: ${searchTerm}` : 'Search',
      description: searchTerm.trim() ? `Blogs whose title matches ${searchTerm}.` : 'Search blogs by title.',
      path: paths.search(searchTerm, page),
    };
  },
  loadError: 'The search could not be run.',
};
