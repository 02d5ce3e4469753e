import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { BlogSort } from '../../shared/blog-schema';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { Pager } from '../components/pager';
import { getBlogsQueryOptions } from '../features/blogs/api/get-blogs';
import { BlogCard } from '../features/blogs/components/blog-card';
import { SubscribeForm } from '../features/subscriptions/components/subscribe-form';
import { loadQuery } from '../lib/load-query';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';
import { useSession } from '../lib/session';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

/** The orders, as their controls name them; 'top' is the spec's and the default. */
const SORTS: ReadonlyArray<{ sort: BlogSort; label: string; title: string }> = [
  { sort: 'top', label: 'Top', title: 'Top blogs' },
  { sort: 'new', label: 'New', title: 'New blogs' },
  { sort: 'hot', label: 'Hot', title: 'Hot blogs' },
];

/** `?sort=` when it names an order; anything else is the default. */
function sortFromUrl(value: string | null): BlogSort {
  return SORTS.find((option) => option.sort === value)?.sort ?? 'top';
}

const listOf = (url: URL) => ({ page: pageFromUrl(url.searchParams.get('page')), sort: sortFromUrl(url.searchParams.get('sort')) });

/** Top, New and Hot as links: they work before (or without) the scripts, and each order has its URL. */
function SortLinks({ current }: { current: BlogSort }) {
  return (
    <nav aria-label="Order of the blogs" className="mb-3">
      <ul className="nav nav-pills gap-1">
        {SORTS.map(({ sort, label }) => (
          <li className="nav-item" key={sort}>
            <Link className={`nav-link${sort === current ? ' active' : ''}`} aria-current={sort === current ? 'page' : undefined} to={paths.home(1, sort)}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The spec's empty text, and an invitation to write the first blog (to sign in first, when signed out). */
function NoBlogsYet() {
  const { data: session, isPending } = useSession();
  const signedOut = !isPending && !session;
  return (
    <div className="py-3">
      <p>{messages.noBlogs}</p>
      {signedOut ? (
        <Link className="btn btn-primary" to={paths.auth()}>
          {messages.signInToWriteFirstBlog}
        </Link>
      ) : (
        <Link className="btn btn-primary" to={paths.create()}>
          {messages.writeFirstBlog}
        </Link>
      )}
    </div>
  );
}

/**
 * The home list: 5 blogs a page in the chosen order; the order and the page live in the URL. Under
 * it, just above the footer, the form to get every new blog by e-mail.
 */
function HomePage() {
  const [searchParams] = useSearchParams();
  const sort = sortFromUrl(searchParams.get('sort'));
  const [page, goTo] = usePageParam();
  const { data: blogs } = useSuspenseQuery(getBlogsQueryOptions(page, sort));
  const queryClient = useQueryClient();

  // Next is the likely click: have it ready.
  useEffect(() => {
    if (blogs.hasMore) void queryClient.prefetchQuery(getBlogsQueryOptions(page + 1, sort));
  }, [blogs.hasMore, page, sort, queryClient]);

  return (
    <>
      <h1 className="visually-hidden">Blogs</h1>
      <SortLinks current={sort} />
      {blogs.items.length === 0 ? (
        page === 1 ? <NoBlogsYet /> : <p>There are no blogs on this page.</p>
      ) : (
        blogs.items.map((blog, index) => <BlogCard key={blog.id} blog={blog} priority={index === 0} />)
      )}
      {/* The pager changes only `page` in the URL, so the order stays. */}
      <Pager page={page} hasMore={blogs.hasMore} onPageChange={goTo} />
      <SubscribeForm />
    </>
  );
}

export const homeScreen: Screen = {
  Component: HomePage,
  loader: (queryClient) => async ({ request }) => {
    const { page, sort } = listOf(new URL(request.url));
    await loadQuery(queryClient, getBlogsQueryOptions(page, sort));
    return null;
  },
  meta: ({ url }) => {
    const { page, sort } = listOf(url);
    const name = sort === 'top' ? undefined : SORTS.find((option) => option.sort === sort)?.title;
    const title = page > 1 ? `${name ?? 'Blogs'}, page ${page}` : name;
    return { title, description: SITE_DESCRIPTION, path: paths.home(page, sort) };
  },
  loadError: 'The blogs could not be loaded.',
};
