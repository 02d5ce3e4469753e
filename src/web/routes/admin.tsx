import { paths } from '../../shared/paths';
import { LoadingPage } from '../components/loading-page';
import { NotFoundPage } from '../components/not-found-page';
import { AuditLogSection } from '../features/admin/audit-log-section';
import { IntegrationsSection } from '../features/admin/integrations-section';
import { OutboxSection } from '../features/admin/outbox-section';
import { PeopleSection } from '../features/admin/people-section';
import { PagesSection } from '../features/site-pages/components/pages-section';
import { SiteSection } from '../features/admin/site-section';
import { useAccess } from '../lib/access';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import { useSite } from '../lib/site-context';
import type { Screen } from '../lib/screen';

const TITLE = 'Site admin';

/**
 * /admin: the owner's and administrators' seat (issue 44). The server renders the same shell for
 * everyone; once the session is known, anyone else sees the site's 404 page, as the server's
 * `/api/admin/…` answers them.
 */
function AdminPage() {
  const { can, isPending } = useAccess();
  const { mailToOutbox } = useSite();
  if (isPending) return <LoadingPage />;
  if (!can('site:manage')) return <NotFoundPage />;
  return (
    <div className="mx-auto" style={{ maxWidth: 960 }}>
      <h1 className="h3 mb-4">{TITLE}</h1>
      <nav aria-label="Admin sections" className="mb-4">
        <a href="#site" className="me-3">Site</a>
        <a href="#pages" className="me-3">Pages</a>
        <a href="#people" className="me-3">People</a>
        <a href="#integrations" className="me-3">Integrations</a>
        <a href="#audit-log">Audit log</a>
        {mailToOutbox && (
          <a href="#outbox" className="ms-3">
            Outbox
          </a>
        )}
      </nav>
      <SiteSection />
      <PagesSection />
      <PeopleSection />
      <IntegrationsSection />
      <AuditLogSection />
      {mailToOutbox && <OutboxSection />}
    </div>
  );
}

export const adminScreen: Screen = { cache: 'never', Component: AdminPage, meta: () => ({ title: TITLE, description: SITE_DESCRIPTION, path: paths.admin() }) };
