import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigate, useNavigation } from 'react-router';
import { paths } from '../../shared/paths';
import { messages } from '../../shared/messages';
import { sessionQueryOptions, useSession, useSessionAcrossTabs } from '../lib/session';
import { feedLinks, PAGE_FEED_ATTRIBUTE } from '../lib/feed-links';
import { fullTitle, isRouteHandle } from '../lib/page-meta';
import { useSite } from '../lib/site-context';
import { Footer } from './footer';
import { Navbar } from './navbar';

/**
 * Blogs carry the viewer's own vote, so cached data is refetched whenever the viewer changes.
 * A page rendered for an anonymous visitor is refetched once a signed-in session is known; one
 * the server rendered with the reader's session already has their data (its first render knows
 * the viewer).
 */
function useRefetchWhenViewerChanges() {
  const queryClient = useQueryClient();
  const { data, isPending } = useSession();
  const viewerId = data?.user.id ?? null;
  const previous = useRef<string | null>(isPending ? null : viewerId);
  useEffect(() => {
    if (isPending) return;
    // Everything but the session itself, which just answered.
    if (previous.current !== viewerId) void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryOptions.queryKey[0] });
    previous.current = viewerId;
  }, [isPending, viewerId, queryClient]);
}

/**
 * A staff account that must set up a second factor (`STAFF_REQUIRE_SECOND_FACTOR`) is sent to
 * Settings from every page until it has one; the server refuses its other API calls meanwhile.
 */
function useSecondFactorEnrolment() {
  const { data } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const mustEnrol = Boolean(data?.secondFactorRequired) && location.pathname !== paths.settings();
  useEffect(() => {
    if (mustEnrol) void navigate(paths.settings(), { replace: true });
  }, [mustEnrol, navigate]);
}

/** Puts the page's own feed links (an author's feeds) in the head in place of the last page's. */
function replacePageFeedLinks(links: ReturnType<typeof feedLinks>) {
  for (const old of document.head.querySelectorAll(`link[${PAGE_FEED_ATTRIBUTE}]`)) old.remove();
  for (const feed of links.filter((link) => link.ofPage)) {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.type = feed.type;
    link.title = feed.title;
    link.href = feed.href;
    link.setAttribute(PAGE_FEED_ATTRIBUTE, '');
    document.head.append(link);
  }
}

/**
 * The server writes each page's title and feed links; after a client-side navigation the browser
 * does (the site's own feeds are the same on every page and stay).
 */
function useDocumentTitle() {
  const matches = useMatches();
  const location = useLocation();
  const queryClient = useQueryClient();
  const site = useSite();
  const handle = matches.map((match) => match.handle).findLast(isRouteHandle);
  useEffect(() => {
    if (!handle) return;
    const url = new URL(location.pathname + location.search, window.location.origin);
    const meta = handle.meta({ url, queryClient, site });
    document.title = fullTitle(meta, site);
    replacePageFeedLinks(feedLinks(site, meta.feed));
  }, [handle, location, queryClient, site]);
}

/** Marks the document once React has hydrated it (end-to-end tests wait for it before clicking). */
function useHydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
}

export function AppLayout() {
  useHydratedMarker();
  useSessionAcrossTabs();
  useRefetchWhenViewerChanges();
  useSecondFactorEnrolment();
  useDocumentTitle();
  const navigation = useNavigation();
  return (
    <>
      <a href="#main" className="visually-hidden-focusable btn btn-light m-2">
        Skip to content
      </a>
      <Navbar />
      <main id="main" className="container py-4" tabIndex={-1}>
        {/* Fixed in place, so the page under it does not move while the next one loads. */}
        {navigation.state === 'loading' && (
          <p role="status" className="navigation-status badge text-bg-secondary fs-6">
            {messages.loading}
          </p>
        )}
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}
