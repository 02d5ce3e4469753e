import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { messages } from '../../shared/messages';
import { getBlogsQueryOptions, useBlogs } from '../features/blogs/api/get-blogs';
import { BlogCard } from '../features/blogs/components/blog-card';
import { BlogPager } from '../features/blogs/components/blog-pager';
import { usePageParam } from '../lib/use-page-param';
import { LoadError } from '../components/load-error';

/** The home list: 5 blogs a page, best rated first; the page lives in the URL. */
export function HomePage() {
  const [page, goTo] = usePageParam();
  const blogs = useBlogs(page);
  const queryClient = useQueryClient();
  const hasMore = blogs.data?.hasMore ?? false;

  // Next is the likely click: have it ready.
  useEffect(() => {
    if (hasMore) void queryClient.prefetchQuery(getBlogsQueryOptions(page + 1));
  }, [hasMore, page, queryClient]);


  return (
    <>
      <h1 className="visually-hidden">Blogs</h1>
      {blogs.isPending ? (
        <p role="status">{messages.loading}</p>
      ) : blogs.isError ? (
        <LoadError what="The blogs could not be loaded." query={blogs} />
      ) : (
        <>
          {blogs.data.items.length === 0 ? (
            <p>{page === 1 ? messages.noBlogs : 'There are no blogs on this page.'}</p>
          ) : (
            blogs.data.items.map((blog) => <BlogCard key={blog.id} blog={blog} />)
          )}
          <BlogPager page={page} hasMore={blogs.data.hasMore} onPageChange={goTo} />
        </>
      )}
    </>
  );
}
