import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { Pager } from '../components/pager';
import { getBlogsQueryOptions } from '../features/blogs/api/get-blogs';
import { BlogCard } from '../features/blogs/components/blog-card';
import { loadQuery } from '../lib/load-query';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

const pageOf = (url: URL) => pageFromUrl(url.searchParams.get('page'));

/** The home list: 5 blogs a page, best rated first; the page lives in the URL. */
function HomePage() {
  const [page, goTo] = usePageParam();
  const { data: blogs } = useSuspenseQuery(getBlogsQueryOptions(page));
  const queryClient = useQueryClient();

  // Next is the likely click: have it ready.
  useEffect(() => {
    if (blogs.hasMore) void queryClient.prefetchQuery(getBlogsQueryOptions(page + 1));
  }, [blogs.hasMore, page, queryClient]);

  return (
    <>
      <h1 className="visually-hidden">Blogs</h1>
      {blogs.items.length === 0 ? (
        <p>{page === 1 ? messages.noBlogs : 'There are no blogs on this page.'}</p>
      ) : (
        blogs.items.map((blog, index) => <BlogCard key={blog.id} blog={blog} priority={index === 0} />)
      )}
      <Pager page={page} hasMore={blogs.hasMore} onPageChange={goTo} />
    </>
  );
}

export const homeScreen: Screen = {
  Component: HomePage,
  loader: (queryClient) => async ({ request }) => {
    await loadQuery(queryClient, getBlogsQueryOptions(pageOf(new URL(request.url))));
    return null;
  },
  meta: ({ url }) => {
    const page = pageOf(url);
    return { title: page > 1 ? `Blogs, page ${page}` : undefined, description: SITE_DESCRIPTION, path: paths.home(page) };
  },
  loadError: 'The blogs could not be loaded.',
};
