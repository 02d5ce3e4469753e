import { dehydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import type { PageViewer, RenderedPage, SiteInfo } from '../shared/page-render';
import { AppProviders } from './app-providers';
import { createRoutes } from './app-routes';
import { jsonForScript } from './lib/json-script';
import { isRouteHandle, SITE_DESCRIPTION, type MetaArgs, type PageMeta, type RouteHandle } from './lib/page-meta';
import { serializeRouteErrors, type PageState } from './lib/page-state';
import { createQueryClient } from './lib/query-client';
import { moderatorAccessQueryOptions } from './lib/moderator-access';
import { sessionQueryOptions, type Session } from './lib/session';
import { PageHead } from './page-head.server';

export { setApiTransport } from './lib/api-client';


/**
 * Renders one page on the server: React Router's static handler runs the matched routes' loaders
 * (which fill a fresh query cache through the screens' own `queryOptions`), React renders the
 * same components the browser hydrates, and the cache and router state travel with the page as
 * JSON. For a signed-in reader of a reading page the session is read first and is part of that
 * state, so the browser's first render, from the same cache, shows the same controls.
 */
export async function renderPage(url: URL, site: SiteInfo, viewer: PageViewer = { signedIn: false }): Promise<RenderedPage> {
  const queryClient = createQueryClient({ server: true });
  const handler = createStaticHandler(createRoutes(queryClient));
  const context = await handler.query(new Request(url));
  if (context instanceof Response) {
    return { kind: 'redirect', status: context.status, location: context.headers.get('location') ?? '/' };
  }
  const handle = deepestHandle(context);
  if (viewer.signedIn && handle?.forTheViewer) await loadViewer(queryClient);

  const router = createStaticRouter(handler.dataRoutes, context);
  const body = renderToString(
    <StrictMode>
      <AppProviders queryClient={queryClient} site={site}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  const head = renderToStaticMarkup(<PageHead meta={pageMeta(context, { url, queryClient, site })} site={site} />);
  const state: PageState = {
    site,
    queries: dehydrate(queryClient),
    router: { loaderData: context.loaderData, actionData: context.actionData, errors: serializeRouteErrors(context.errors) },
  };
  queryClient.clear();
  const scripts = !viewer.signedIn && handle?.scriptOnFirstTouch ? 'on-first-touch' : 'at-once';
  const error = context.statusCode >= 500 && context.errors ? Object.values(context.errors)[0] : undefined;
  return { kind: 'page', status: context.statusCode, head, body, state: jsonForScript(state), cacheTags: pageCacheTags(context, url), scripts, error };
}

/** The tags the deepest matched screen declares for this URL; none for a page that is never kept. */
function pageCacheTags(context: StaticHandlerContext, url: URL): readonly string[] | undefined {
  const cache = deepestHandle(context)?.cache;
  if (cache === undefined || cache === 'never') return undefined;
  const deepest = context.matches.findLast((match) => isRouteHandle(match.route.handle as unknown));
  return cache(url, deepest ? context.loaderData[deepest.route.id] : undefined);
}

/**
 * The session (null when the cookie no longer names one) and, for a signed-in reader, whether
 * the menu shows Moderation. A failure leaves the query out: the browser asks, as for anyone.
 */
async function loadViewer(queryClient: ReturnType<typeof createQueryClient>): Promise<void> {
  let session: Session | null;
  try {
    session = await queryClient.fetchQuery(sessionQueryOptions);
  } catch {
    return;
  }
  if (session) await queryClient.prefetchQuery(moderatorAccessQueryOptions(session.user.id));
}

/** The deepest matched route that describes itself. */
function pageMeta(context: StaticHandlerContext, args: MetaArgs): PageMeta {
  const handle = deepestHandle(context);
  return handle ? handle.meta(args) : { description: SITE_DESCRIPTION, path: args.url.pathname };
}

/** What the deepest matched screen declares (its meta, caching, rendering for the viewer). */
function deepestHandle(context: StaticHandlerContext): RouteHandle | undefined {
  return context.matches.map((match) => match.route.handle as unknown).findLast(isRouteHandle);
}
