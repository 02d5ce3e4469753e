import { Link, useSearchParams } from 'react-router';
import { paths } from '../../shared/paths';
import { PostsSection } from '../features/admin/posts-section';
import { LoadingPage } from '../components/loading-page';
import { Pager } from '../components/pager';
import { RequireSession } from '../components/require-session';
import { useDrafts } from '../features/blogs/api/get-drafts';
import { DraftList } from '../features/blogs/components/draft-list';
import { DRAFT_TEXTS } from '../features/blogs/draft-texts';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';
import { usePageParam } from '../lib/use-page-param';

/**
 * /drafts: the signed-in user's drafts. Like the other signed-in screens the server sends the
 * shell (rendered for an anonymous visitor, so no drafts in any HTML); the list loads in the
 * browser once the session is known.
 */
function DraftsPage() {
  return (
    <RequireSession what="see your drafts">
      {() => (
        <>
          <h1 className="h3 mb-4">{DRAFT_TEXTS.myDrafts}</h1>
          <AllMyBlogsOrDrafts />
        </>
      )}
    </RequireSession>
  );
}

/** The drafts, as the spec has them; 'All my blogs' (issue 59) below them opens the list of every one of the writer's blogs. */
function AllMyBlogsOrDrafts() {
  const [searchParams] = useSearchParams();
  if (searchParams.get('view') === 'all') {
    return (
      <>
        <p>
          <Link to={paths.drafts()}>{DRAFT_TEXTS.myDrafts}</Link>
        </p>
        <PostsSection own />
      </>
    );
  }
  return (
    <>
      <Drafts />
      <p className="mt-3">
        <Link to={`${paths.drafts()}?view=all`}>{DRAFT_TEXTS.allMyBlogs}</Link>
      </p>
    </>
  );
}

function Drafts() {
  const [page, goTo] = usePageParam();
  const drafts = useDrafts(page);
  if (drafts.isPending) return <LoadingPage />;
  if (drafts.isError) throw drafts.error;
  return (
    <>
      <DraftList drafts={drafts.data.items} />
      {(page > 1 || drafts.data.hasMore) && <Pager page={page} hasMore={drafts.data.hasMore} onPageChange={goTo} />}
    </>
  );
}

export const draftsScreen: Screen = {
  cache: 'never',
  Component: DraftsPage,
  meta: () => ({ title: DRAFT_TEXTS.myDrafts, description: SITE_DESCRIPTION, path: paths.drafts() }),
  loadError: 'Your drafts could not be loaded.',
};
