import { useSearchParams } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { DoesNotExist } from '../components/not-found-page';
import { getAuthorBlogsQueryOptions } from '../features/blogs/api/get-author-blogs';
import { AuthorProfile } from '../features/blogs/components/author-profile';
import { BlogListPage } from '../features/blogs/components/blog-list-page';
import { SubscribeForm } from '../features/subscriptions/components/subscribe-form';
import { SubscriberCount } from '../features/subscriptions/components/subscriber-count';
import { routeError } from '../lib/load-query';
import { usePagedQuery } from '../lib/use-paged-query';
import { BLOG_LIST_SCREEN, type Screen, urlListScreen } from '../lib/screen';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

const listOf = (url: URL) => ({ id: url.searchParams.get('id') ?? '', page: pageFromUrl(url.searchParams.get('page')) });

function AuthorDoesNotExist() {
  return <DoesNotExist message={messages.noSuchAuthor} />;
}

/**
 * /author?id={userId}&page=N : an author's blogs, newest first, 5 a page, under their profile
 * (display name, @handle, bio), with the home list's cards and pager, and a form to get their new
 * blogs by e-mail. The author sees their number of subscribers beside the heading, on its line, so
 * it moves nothing when it arrives.
 */
function AuthorPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  const [page, goTo] = usePageParam();
  const list = usePagedQuery(page, (at) => getAuthorBlogsQueryOptions(id, at));

  return (
    <>
      <div className="d-flex align-items-baseline justify-content-between gap-3 mb-2">
        <h1 className="h3 mb-0 text-break">{messages.blogsBy(list.author.name)}</h1>
        <div className="flex-shrink-0">
          <SubscriberCount authorId={list.author.id} />
        </div>
      </div>
      <AuthorProfile author={list.author} />
      <BlogListPage list={list} page={page} onPageChange={goTo} noBlogs={<p>No blogs yet.</p>} />
      <SubscribeForm authorId={list.author.id} />
    </>
  );
}

export const authorScreen: Screen = {
  ...BLOG_LIST_SCREEN,
  Component: AuthorPage,
  ...urlListScreen(
    listOf,
    ({ id, page }) => {
      if (!id) throw routeError(404, messages.noSuchAuthor);
      return getAuthorBlogsQueryOptions(id, page);
    },
    ({ id, page }, { queryClient }) => {
      const list = id ? queryClient.getQueryData(getAuthorBlogsQueryOptions(id, page).queryKey) : undefined;
      if (!list) return { title: messages.noSuchAuthor, description: messages.noSuchAuthor, path: paths.author(id, page) };
      const heading = messages.blogsBy(list.author.name);
      return {
        title: page > 1 ? `${heading}, page ${page}` : heading,
        description: `The blogs ${list.author.name} wrote, newest first.`,
        path: paths.author(list.author.id, page),
        feed: { title: heading, author: list.author.id },
      };
    },
  ),
  NotFound: AuthorDoesNotExist,
};
