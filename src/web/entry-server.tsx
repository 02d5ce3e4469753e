import { dehydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import type { RenderedPage, SiteInfo } from '../shared/page-render';
import { AppProviders } from './app-providers';
import { createRoutes } from './app-routes';
import { jsonForScript } from './lib/json-script';
import { isRouteHandle, SITE_DESCRIPTION, type MetaArgs, type PageMeta } from './lib/page-meta';
import { serializeRouteErrors, type PageState } from './lib/page-state';
import { createQueryClient } from './lib/query-client';
import { PageHead } from './page-head.server';

export { setApiTransport } from './lib/api-client';

/**
 * Renders one page on the server for an anonymous visitor: React Router's static handler runs
 * the matched routes' loaders (which fill a fresh query cache through the screens' own
 * `queryOptions`), React renders the same components the browser hydrates, and the cache and
 * router state travel with the page as JSON.
 */
export async function renderPage(url: URL, site: SiteInfo): Promise<RenderedPage> {
  const queryClient = createQueryClient({ server: true });
  const handler = createStaticHandler(createRoutes(queryClient));
  const context = await handler.query(new Request(url));
  if (context instanceof Response) {
    return { kind: 'redirect', status: context.status, location: context.headers.get('location') ?? '/' };
  }

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
  return { kind: 'page', status: context.statusCode, head, body, state: jsonForScript(state), cacheTags: pageCacheTags(context, url) };
}

/** The tags the deepest matched screen declares for this URL; none for a page that is never kept. */
function pageCacheTags(context: StaticHandlerContext, url: URL): readonly string[] | undefined {
  const handle = context.matches.map((match) => match.route.handle as unknown).findLast(isRouteHandle);
  const cache = handle?.cache;
  return cache === undefined || cache === 'never' ? undefined : cache(url);
}

/** The deepest matched route that describes itself. */
function pageMeta(context: StaticHandlerContext, args: MetaArgs): PageMeta {
  const handle = context.matches.map((match) => match.route.handle as unknown).findLast(isRouteHandle);
  return handle ? handle.meta(args) : { description: SITE_DESCRIPTION, path: args.url.pathname };
}
