import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { messages } from '../../../../shared/messages';
import { BlogCard } from '../../blogs/components/blog-card';
import { BlogPager } from '../../blogs/components/blog-pager';
import { searchBlogsQueryOptions, useSearchBlogs } from '../api/search-blogs';
import { LoadError } from '../../../components/load-error';

/**
 * 'Loading...', then 'No Blogs Found' or '{n} blogs matched the search term {term}' and a card
 * per blog. The term is rendered as text, so markup in it is shown, never run.
 */
export function SearchResults({ searchTerm, page, onPageChange }: { searchTerm: string; page: number; onPageChange: (page: number) => void }) {
  const results = useSearchBlogs(searchTerm, page);
  const queryClient = useQueryClient();
  const hasMore = results.data?.hasMore ?? false;

  useEffect(() => {
    if (hasMore) void queryClient.prefetchQuery(searchBlogsQueryOptions(searchTerm, page + 1));
  }, [hasMore, page, searchTerm, queryClient]);

  if (results.isPending) return <p role="status">{messages.loading}</p>;
  if (results.isError) {
    return (
      <LoadError what="The search could not be run." query={results} />
    );
  }
  const { items, total } = results.data;
  if (total === 0) return <NoBlogsFound />;
  return (
    <>
      <p role="status" className="h5 mb-4 search-summary">
        {total} blogs matched the search term {searchTerm}
      </p>
      {items.length === 0 ? <p>There are no blogs on this page.</p> : items.map((blog, index) => <BlogCard key={blog.id} blog={blog} priority={index === 0} />)}
      <BlogPager page={page} hasMore={hasMore} onPageChange={onPageChange} />
    </>
  );
}

export function NoBlogsFound() {
  return (
    <p role="status" className="h5">
      {messages.noBlogsFound}
    </p>
  );
}
