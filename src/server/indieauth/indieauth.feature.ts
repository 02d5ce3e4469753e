import type { AppDeps } from '../app-deps.js';
import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { outgoingRequestGuard } from '../http/public-address.js';
import { wrongTokensOf } from '../core/app-tokens.js';
import { indieAuthAccountRoutes, indieAuthProtocolRoutes, type IndieAuthRouteDeps } from './indieauth.routes.js';
import { CLIENT_PAGE_LIMITS } from './client-info.js';
import { createIndieAuth } from './indieauth.service.js';

/** One IndieAuth per app: its client-page cache and its wrong-token gate serve both contexts. */
const made = new WeakMap<AppDeps, IndieAuthRouteDeps>();
function indieAuthOf(deps: AppDeps, now: () => Date): IndieAuthRouteDeps {
  let built = made.get(deps);
  if (!built) {
    // An app's page is fetched only from a public address (http/public-address.ts), briefly and capped.
    const guard = outgoingRequestGuard({ allowPrivateAddress: false, limits: CLIENT_PAGE_LIMITS });
    built = { ...deps, indieAuth: createIndieAuth({ db: deps.db, publicUrl: deps.config.publicUrl, guard, now }), wrongTokens: wrongTokensOf(deps.limiter) };
    made.set(deps, built);
  }
  return built;
}

/** IndieAuth (issue 60): apps sign in as an author and get tokens with scopes; Settings' 'Apps' revokes them. */
export const indieauthFeature = defineFeature({
  name: 'indieauth',
  routes: ({ deps, now }) => [
    { visitors: 'anyone, outside the API', plugin: routes(indieAuthProtocolRoutes, indieAuthOf(deps, now)) },
    { visitors: 'signed-in', plugin: routes(indieAuthAccountRoutes, indieAuthOf(deps, now)) },
  ],
});
