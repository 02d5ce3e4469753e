import { Link } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { LoadingPage } from '../components/loading-page';
import { NotFoundPage } from '../components/not-found-page';
import { MailQueue } from '../features/moderation/components/mail-queue';
import { ModerationPanel } from '../features/moderation/components/moderation-panel';
import { useModeratorAccess } from '../lib/moderator-access';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

/**
 * /moderation: the server renders the same shell for everyone (pages are rendered for an
 * anonymous visitor); once the session is known, anyone but a moderator sees the site's 404
 * page. The server decides: its moderation API answers 404 to everyone else.
 */
function ModerationPage() {
  const { isModerator, isPending } = useModeratorAccess();
  if (isPending) return <LoadingPage />;
  if (!isModerator) return <NotFoundPage />;
  return (
    <div className="mx-auto" style={{ maxWidth: 960 }}>
      <h1 className="h3 mb-4">{messages.moderation}</h1>
      <p>
        <Link to={paths.import()}>Import posts from Ghost, WordPress or Markdown files</Link>
      </p>
      <ModerationPanel />
      <MailQueue />
    </div>
  );
}

export const moderationScreen: Screen = {
  cache: 'never',
  Component: ModerationPage,
  meta: () => ({ title: messages.moderation, description: SITE_DESCRIPTION, path: paths.moderation() }),
};
