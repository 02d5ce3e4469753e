import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { messages } from '../shared/messages';
import { paths } from '../shared/paths';
import { AppLayout } from './components/app-layout';
import { NotFoundPage } from './components/not-found-page';
import { RouteError } from './components/route-error';
import { routeError } from './lib/load-query';
import { SITE_DESCRIPTION, type RouteHandle } from './lib/page-meta';
import type { Screen } from './lib/screen';

/**
 * The spec's routes, exactly, and the site's own (/author, /drafts, /tag, /tags, ...); parameters are query parameters (?id=, ?searchTerm=, ?page=).
 * Each screen's code loads on first visit; its loader fills `queryClient`, the one cache the
 * screen reads, so the server and the browser render the same thing from the same data.
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const screen = (path: string, load: () => Promise<Screen>): RouteObject => ({
    path,
    errorElement: <RouteError />,
    lazy: async () => {
      const { Component, loader, meta, cache, forTheViewer, scriptOnFirstTouch, loadError, NotFound } = await load();
      const handle: RouteHandle & Pick<Screen, 'NotFound'> = { meta, cache, forTheViewer, scriptOnFirstTouch, loadError, NotFound };
      return { Component, loader: loader?.(queryClient), handle };
    },
  });

  const notFound: RouteHandle = { meta: () => ({ title: 'Page not found', description: SITE_DESCRIPTION, path: paths.home() }) };

  return [
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      children: [
        screen('/', async () => (await import('./routes/home')).homeScreen),
        screen('/create', async () => (await import('./routes/create')).createScreen),
        screen('/edit', async () => (await import('./routes/edit')).editScreen),
        screen('/about', async () => (await import('./routes/about')).aboutScreen),
        screen('/auth', async () => (await import('./routes/auth')).authScreen),
        screen('/support', async () => (await import('./routes/support')).supportScreen),
        screen('/page/:slug', async () => (await import('./routes/site-page')).sitePageScreen),
        screen('/viewBlog', async () => (await import('./routes/view-blog')).viewBlogScreen),
        screen('/blog/:slug', async () => (await import('./routes/view-blog')).blogAtAddressScreen),
        screen('/settings', async () => (await import('./routes/settings')).settingsScreen),
        screen('/search', async () => (await import('./routes/search')).searchScreen),
        screen('/ai', async () => (await import('./routes/ai')).aiScreen),
        screen('/author', async () => (await import('./routes/author')).authorScreen),
        screen('/tag', async () => (await import('./routes/tag')).tagScreen),
        screen('/tags', async () => (await import('./routes/tags')).tagsScreen),
        screen('/unsubscribe', async () => (await import('./routes/unsubscribe')).unsubscribeScreen),
        screen('/subscription/confirm', async () => (await import('./routes/subscription-link')).confirmSubscriptionScreen),
        screen('/subscription/unsubscribe', async () => (await import('./routes/subscription-link')).unsubscribeSubscriptionScreen),
        screen('/drafts', async () => (await import('./routes/drafts')).draftsScreen),
        screen('/moderation', async () => (await import('./routes/moderation')).moderationScreen),
        screen('/admin', async () => (await import('./routes/admin')).adminScreen),
        screen('/admin/:section', async () => (await import('./routes/admin')).adminScreen),
        screen('/import', async () => (await import('./routes/import')).importScreen),
        screen('/following', async () => (await import('./routes/following')).followingScreen),
        screen('/not-me', async () => (await import('./routes/not-me')).notMeScreen),
        screen('/indieauth/authorize', async () => (await import('./routes/indieauth-authorize')).indieAuthAuthorizeScreen),
        screen('/analytics', async () => (await import('./routes/analytics')).analyticsScreen),
        screen('/analytics/blog', async () => (await import('./routes/blog-analytics')).blogAnalyticsScreen),
        {
          path: '*',
          // The server answers unknown paths with 404 and this screen.
          loader: () => {
            throw routeError(404, messages.notFoundPage);
          },
          Component: NotFoundPage,
          errorElement: <RouteError />,
          handle: notFound,
        },
      ],
    },
  ];
}
