import Alert from 'react-bootstrap/Alert';
import { Link, useSearchParams } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { SortLinks, SORTS, sortFromUrl } from '../components/sort-links';
import { getBlogsQueryOptions } from '../features/blogs/api/get-blogs';
import { BlogListPage } from '../features/blogs/components/blog-list-page';
import { SubscribeForm } from '../features/subscriptions/components/subscribe-form';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import { usePagedQuery } from '../lib/use-paged-query';
import { BLOG_LIST_SCREEN, type Screen, urlListScreen } from '../lib/screen';
import { useSession } from '../lib/session';
import { useSite } from '../lib/site-context';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

const listOf = (url: URL) => ({ page: pageFromUrl(url.searchParams.get('page')), sort: sortFromUrl(url.searchParams.get('sort')) });

/** A fresh site's first visitor is told that the first account becomes the owner's (issue 58), while no account exists. */
function FirstAccountNote() {
  if (!useSite().firstAccountAwaited) return null;
  return (
    <Alert variant="info" className="mt-3">
      <p>{messages.firstAccountBecomesOwner}</p>
      <Link className="btn btn-primary" to={paths.auth('sign_up')}>
        {messages.createFirstAccount}
      </Link>
    </Alert>
  );
}

/** The spec's empty text, and an invitation to write the first blog (to sign in first, when signed out). */
function NoBlogsYet() {
  const { data: session, isPending } = useSession();
  const signedOut = !isPending && !session;
  // On a fresh site the first-account note above has the way in.
  if (useSite().firstAccountAwaited) return <p className="py-3">{messages.noBlogs}</p>;
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
  const blogs = usePagedQuery(page, (at) => getBlogsQueryOptions(at, sort));

  return (
    <>
      <h1 className="visually-hidden">Blogs</h1>
      <FirstAccountNote />
      <SortLinks current={sort} pathOf={(order) => paths.home(1, order)} />
      {/* The pager changes only `page` in the URL, so the order stays. */}
      <BlogListPage list={blogs} page={page} onPageChange={goTo} noBlogs={<NoBlogsYet />} />
      <SubscribeForm />
    </>
  );
}

export const homeScreen: Screen = {
  ...BLOG_LIST_SCREEN,
  Component: HomePage,
  ...urlListScreen(
    listOf,
    ({ page, sort }) => getBlogsQueryOptions(page, sort),
    ({ page, sort }) => {
      const name = sort === 'top' ? undefined : SORTS.find((option) => option.sort === sort)?.title;
      const title = page > 1 ? `${name ?? 'Blogs'}, page ${page}` : name;
      return { title, description: SITE_DESCRIPTION, path: paths.home(page, sort) };
    },
  ),
};
