import Card from 'react-bootstrap/Card';
import { paths } from '../../shared/paths';
import { RequireSession } from '../components/require-session';
import { FollowForm } from '../features/federation/components/follow-form';
import { FollowingList } from '../features/federation/components/following-list';
import { RemoteTimeline } from '../features/federation/components/remote-timeline';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

const TITLE = 'Following on the fediverse';

/**
 * /following: the signed-in reader follows authors of other fediverse sites, reads their posts
 * and replies. Like the other signed-in screens the server sends the shell (rendered for an
 * anonymous visitor); the lists load in the browser once the session is known.
 */
function FollowingPage() {
  return (
    <RequireSession what="follow authors on the fediverse">
      {(user) => (
        <div className="mx-auto" style={{ maxWidth: 760 }}>
          <h1 className="h3 mb-4">{TITLE}</h1>
          <Card className="mb-4">
            <Card.Body>
              <h2 className="h5 mb-3">Follow someone on the fediverse</h2>
              <FollowForm userId={user.id} />
            </Card.Body>
          </Card>
          <Card className="mb-4">
            <Card.Body>
              <h2 className="h5 mb-3">Accounts you follow</h2>
              <FollowingList userId={user.id} />
            </Card.Body>
          </Card>
          <section aria-labelledby="their-posts-heading">
            <h2 id="their-posts-heading" className="h5 mb-3">
              Their posts
            </h2>
            <RemoteTimeline userId={user.id} />
          </section>
        </div>
      )}
    </RequireSession>
  );
}

export const followingScreen: Screen = {
  cache: 'never',
  Component: FollowingPage,
  meta: () => ({ title: TITLE, description: SITE_DESCRIPTION, path: paths.following() }),
  loadError: 'The fediverse page could not be loaded.',
};
