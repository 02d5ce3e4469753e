import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { LoadingPage } from '../components/loading-page';
import { NotFoundPage } from '../components/not-found-page';
import { ImportForm } from '../features/import/components/import-form';
import { useModeratorAccess } from '../lib/moderator-access';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

/**
 * /import: moderators bring a Ghost, WordPress or Markdown export into the site. As /moderation,
 * the same shell is rendered for everyone and anyone but a moderator sees the 404 page once the
 * session is known; the server's import API answers 404 to everyone else.
 */
function ImportPage() {
  const { isModerator, isPending } = useModeratorAccess();
  if (isPending) return <LoadingPage />;
  if (!isModerator) return <NotFoundPage />;
  return (
    <div className="mx-auto" style={{ maxWidth: 760 }}>
      <h1 className="h3 mb-4">{messages.importContent}</h1>
      <ImportForm />
    </div>
  );
}

export const importScreen: Screen = {
  cache: 'never',
  Component: ImportPage,
  meta: () => ({ title: messages.importContent, description: SITE_DESCRIPTION, path: paths.import() }),
};
