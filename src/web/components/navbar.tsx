import { paths } from '../../shared/paths';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Nav from 'react-bootstrap/Nav';
import BootstrapNavbar from 'react-bootstrap/Navbar';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { Link, NavLink, useNavigate } from 'react-router';
import { navigationTargetOf } from '../../shared/navigation-link';
import { useAccess } from '../lib/access';
import { useSite } from '../lib/site-context';
import { useModeratorAccess } from '../lib/moderator-access';
import { useAuthClient, useSession } from '../lib/session';

import { DEFAULT_TIP_JAR_URL } from '../../shared/site-settings-schema';

/** Brand, Home, About, More, and the search box; collapses below the md breakpoint. */
export function Navbar() {
  const { data: session } = useSession();
  const { isModerator } = useModeratorAccess();
  const { access, can } = useAccess();
  // A reader (issue 44) writes nothing: no Create a Blog, no AI Blog Generator. Everyone else sees the spec's menu.
  const writes = access === null || can('blog:draft');
  const generates = access === null || can('ai:generate');
  const navigate = useNavigate();
  const loadAuth = useAuthClient();
  const [expanded, setExpanded] = useState(false);
  const site = useSite();
  const tipJar = tipJarHref(site.tipJarUrl ?? DEFAULT_TIP_JAR_URL);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The field is uncontrolled: what was typed before the page hydrated stays in it and counts.
    const trimmed = String(new FormData(event.currentTarget).get('searchTerm') ?? '').trim();
    if (!trimmed) return;
    setExpanded(false);
    void navigate(`/search?searchTerm=${encodeURIComponent(trimmed)}`);
  };

  const logOut = async () => {
    setExpanded(false);
    const { authClient } = await loadAuth();
    await authClient.signOut();
    void navigate(paths.home());
  };

  return (
    <BootstrapNavbar expand="md" bg="dark" data-bs-theme="dark" expanded={expanded} onToggle={setExpanded} collapseOnSelect>
      <Container>
        <BootstrapNavbar.Brand as={Link} to="/">
          {/* The logo beside the name, which stays the link's text (the image is decoration). */}
          {site.logoUrl && <img src={site.logoUrl} alt="" height={30} className="site-logo me-2 align-text-top" />}
          {site.name}
        </BootstrapNavbar.Brand>
        <BootstrapNavbar.Toggle aria-controls="main-navbar" aria-label="Toggle navigation">
          {/* Bootstrap's three bars, drawn inline: as its CSS background (a data: SVG) they were a
              separate SVG document the browser built during the first style pass (issue 23). */}
          <span className="navbar-toggler-icon navbar-toggler-icon-inline">
            <svg viewBox="0 0 30 30" aria-hidden="true" focusable="false">
              <path stroke="currentColor" strokeLinecap="round" strokeMiterlimit="10" strokeWidth="2" d="M4 7h22M4 15h22M4 23h22" />
            </svg>
          </span>
        </BootstrapNavbar.Toggle>
        <BootstrapNavbar.Collapse id="main-navbar">
          <Nav className="me-auto">
            <Nav.Link as={NavLink} to="/" end eventKey="home">
              Home
            </Nav.Link>
            <Nav.Link as={NavLink} to="/about" eventKey="about">
              About
            </Nav.Link>
            {/* A signed-in reader's page has the menu in its HTML, rendered with their items. */}
            {site.navigation?.map((link) => (
              <SiteNavigationLink key={`${link.label} ${link.url}`} label={link.label} url={link.url} />
            ))}
            <NavDropdown title="More" id="more-menu" renderMenuOnMount={Boolean(session)}>
              {writes && (
                <NavDropdown.Item as={Link} to="/create" eventKey="create">
                  Create a Blog
                </NavDropdown.Item>
              )}
              <NavDropdown.Item as={Link} to="/auth" eventKey="auth">
                Login or Register
              </NavDropdown.Item>
              <NavDropdown.Item as={Link} to="/support" eventKey="support">
                Support
              </NavDropdown.Item>
              {session && (
                <>
                  <NavDropdown.Item as={Link} to="/settings" eventKey="settings">
                    Settings
                  </NavDropdown.Item>
                  {generates && (
                    <NavDropdown.Item as={Link} to="/ai" eventKey="ai">
                      AI Blog Generator
                    </NavDropdown.Item>
                  )}
                  <NavDropdown.Item as={Link} to={paths.drafts()} eventKey="drafts">
                    My Drafts
                  </NavDropdown.Item>
                  {can('site:manage') && (
                    <NavDropdown.Item as={Link} to={paths.admin()} eventKey="admin">
                      Site admin
                    </NavDropdown.Item>
                  )}
                  {isModerator && (
                    <>
                      <NavDropdown.Item as={Link} to="/moderation" eventKey="moderation">
                        Moderation
                      </NavDropdown.Item>
                      <NavDropdown.Item as={Link} to={paths.analytics()} eventKey="analytics">
                        Site statistics
                      </NavDropdown.Item>
                    </>
                  )}
                </>
              )}
              {tipJar && (
                <>
                  <NavDropdown.Divider />
                  <NavDropdown.Item href={tipJar} target="_blank" rel="noopener noreferrer">
                    Tip jar (opens a new tab)
                  </NavDropdown.Item>
                </>
              )}
              {session && (
                <>
                  <NavDropdown.Divider />
                  <NavDropdown.Item as="button" onClick={() => void logOut()}>
                    Log out
                  </NavDropdown.Item>
                </>
              )}
            </NavDropdown>
          </Nav>
          {/* A real GET form too, so a search sent before the scripts have run still arrives. */}
          <Form className="d-flex" role="search" action="/search" method="get" onSubmit={search}>
            <Form.Label htmlFor="navbar-search" visuallyHidden>
              Search
            </Form.Label>
            <Form.Control
              id="navbar-search"
              name="searchTerm"
              type="search"
              placeholder="Search blogs by title"
              className="me-2"
            />
            <Button type="submit" variant="outline-light">
              Search
            </Button>
          </Form>
        </BootstrapNavbar.Collapse>
      </Container>
    </BootstrapNavbar>
  );
}

/** The owner's 'Tip jar link' (issue 58) as an href, or null: none set, or one that is neither a path on the site nor an http(s) address. */
function tipJarHref(url: string): string | null {
  const target = navigationTargetOf(url);
  return target.kind === 'site' ? target.path : target.kind === 'elsewhere' ? target.href : null;
}

/**
 * One of the owner's navigation links: a path on the site through the router, an address elsewhere
 * as a plain link, anything else (stored before the settings' check, or past it) as plain text:
 * given to the router, `/\evil.example/` made every page answer 500 (issue 56).
 */
function SiteNavigationLink({ label, url }: { label: string; url: string }) {
  const target = navigationTargetOf(url);
  if (target.kind === 'site') {
    return (
      <Nav.Link as={NavLink} to={target.path} end>
        {label}
      </Nav.Link>
    );
  }
  if (target.kind === 'elsewhere') {
    return (
      <Nav.Link href={target.href} rel="noopener noreferrer">
        {label}
      </Nav.Link>
    );
  }
  return <span className="navbar-text site-link-inert me-2">{label}</span>;
}
