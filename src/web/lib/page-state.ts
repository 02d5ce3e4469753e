import type { DehydratedState } from '@tanstack/react-query';
import type { SiteInfo } from '../../shared/page-render';

/**
 * What the server hands the browser with each page, in a non-executable JSON script (the CSP
 * allows no inline script): the site's settings, the query cache the page was rendered from,
 * and the router's loader data and errors, in the shape React Router reads on hydration.
 */
export interface PageState {
  site: SiteInfo;
  queries: DehydratedState;
  router: {
    loaderData: Record<string, unknown>;
    actionData: Record<string, unknown> | null;
    errors: Record<string, unknown> | null;
  };
}

/** React Router's own serialisation of route errors (as its `StaticRouterProvider` writes them). */
export function serializeRouteErrors(errors: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!errors) return null;
  const serialized: Record<string, unknown> = {};
  for (const [routeId, error] of Object.entries(errors)) {
    if (error && typeof error === 'object' && 'status' in error && 'internal' in error) {
      serialized[routeId] = { ...error, __type: 'RouteErrorResponse' };
    } else if (error instanceof Error) {
      // The message only: a stack trace never leaves the server.
      serialized[routeId] = { message: error.message, __type: 'Error' };
    } else {
      serialized[routeId] = error;
    }
  }
  return serialized;
}
