import type { ComponentType, ReactNode } from 'react';
import { useModeratorAccess } from '../lib/moderator-access';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';
import { LoadingPage } from './loading-page';
import { NotFoundPage } from './not-found-page';

/**
 * A page for moderators: the server renders the same shell for everyone (pages are rendered for
 * an anonymous visitor); once the session is known, anyone but a moderator sees the site's 404
 * page. The server decides: its moderation APIs answer 404 to everyone else.
 */
export function ModeratorsOnlyPage({ title, maxWidth, children }: { title: string; maxWidth: number; children: ReactNode }) {
  const { isModerator, isPending } = useModeratorAccess();
  if (isPending) return <LoadingPage />;
  if (!isModerator) return <NotFoundPage />;
  return (
    <div className="mx-auto" style={{ maxWidth }}>
      <h1 className="h3 mb-4">{title}</h1>
      {children}
    </div>
  );
}

/** The screen of a moderators' page: never cached, `title` its name. */
export function moderatorsScreen(Component: ComponentType, title: string, path: string): Screen {
  return { cache: 'never', Component, meta: () => ({ title, description: SITE_DESCRIPTION, path }) };
}
