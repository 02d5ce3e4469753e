import { hydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router';
import { PAGE_STATE_ID } from '../shared/page-render';
import { AppProviders } from './app-providers';
import { createRoutes } from './app-routes';
import type { PageState } from './lib/page-state';
import { createQueryClient } from './lib/query-client';

declare global {
  interface Window {
    /** Where React Router looks for the server's loader data and errors when it starts. */
    __staticRouterHydrationData?: PageState['router'];
  }
}

/** The screens of the first URL are loaded before hydrating, so the first render matches the server's. */
async function loadLazyRoutes(routes: RouteObject[]) {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

/**
 * Hydrates the server's page: loaded by `loader.ts`, at once or on the reader's first touch
 * (docs/page-weight.md). Resolves once the hydration has been started.
 */
export async function start() {
  const state = JSON.parse(document.getElementById(PAGE_STATE_ID)!.textContent!) as PageState;
  const queryClient = createQueryClient();
  hydrate(queryClient, state.queries);
  window.__staticRouterHydrationData = state.router;
  const routes = createRoutes(queryClient);
  await loadLazyRoutes(routes);
  const router = createBrowserRouter(routes);

  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <AppProviders queryClient={queryClient} site={state.site}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}
