import Nav from 'react-bootstrap/Nav';
import { Link, useParams } from 'react-router';
import { paths } from '../../shared/paths';
import { LoadingPage } from '../components/loading-page';
import { NotFoundPage } from '../components/not-found-page';
import { visibleAdminSections, type AdminSection } from './admin-sections';
import { useAccess } from '../lib/access';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import { useSite } from '../lib/site-context';
import type { Screen } from '../lib/screen';
// The sections' tables and selects: /admin renders them only once the session is known.
import '../styles/bootstrap-tables.scss';
import '../styles/bootstrap-form-select.scss';

const TITLE = 'Site admin';

/** One navigation on every section, the current one marked; it wraps inside itself on a phone. */
function AdminNav({ sections, current }: { sections: AdminSection[]; current: AdminSection }) {
  return (
    <Nav as="nav" variant="pills" aria-label="Admin sections" className="mb-4 flex-wrap gap-1">
      {sections.map((section) => (
        <Nav.Item key={section.id}>
          <Nav.Link as={Link} to={paths.adminSection(section.id)} active={section.id === current.id} aria-current={section.id === current.id ? 'page' : undefined}>
            {section.title}
          </Nav.Link>
        </Nav.Item>
      ))}
    </Nav>
  );
}

/**
 * /admin and /admin/<section> (issues 44, 59): the owner's, administrators' (and for some
 * sections editors') seat, one section at a time. The server renders the same shell for everyone;
 * once the session is known, anyone who may not see the section sees the site's 404 page, as the
 * server's `/api/admin/…` answers them. /admin shows the first section the visitor may see.
 */
function AdminPage() {
  const { section: wanted } = useParams();
  const { can, isPending } = useAccess();
  const { mailToOutbox } = useSite();
  if (isPending) return <LoadingPage />;
  const sections = visibleAdminSections(can, mailToOutbox === true);
  const current = wanted === undefined ? sections[0] : sections.find((section) => section.id === wanted);
  if (!current) return <NotFoundPage />;
  return (
    <div className="mx-auto" style={{ maxWidth: 960 }}>
      <h1 className="h3 mb-3">{TITLE}</h1>
      <AdminNav sections={sections} current={current} />
      <current.Component />
    </div>
  );
}

export const adminScreen: Screen = { cache: 'never', Component: AdminPage, meta: ({ url }) => ({ title: TITLE, description: SITE_DESCRIPTION, path: url.pathname.startsWith(`${paths.admin()}/`) ? url.pathname : paths.admin() }) };
