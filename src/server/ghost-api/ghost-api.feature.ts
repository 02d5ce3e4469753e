import type { AppDeps } from '../app-deps.js';
import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { adminApiRoutes } from './admin-api.routes.js';
import { contentApiCors, contentApiRoutes } from './content-api.routes.js';
import type { ContentApiDeps } from './content-api.service.js';
import { integrationRoutes } from './integrations.routes.js';
import type { IntegrationsDeps } from './integrations.service.js';

const integrationsOf = (deps: AppDeps): IntegrationsDeps => ({ db: deps.db, secret: deps.config.authSecret, publicUrl: deps.config.publicUrl });
const contentOf = (deps: AppDeps): ContentApiDeps => ({ db: deps.db, storage: deps.storage, publicUrl: deps.config.publicUrl, settings: () => deps.siteSettings.get() });

/**
 * Ghost's APIs (issue 60, docs/apis.md): the integrations and their keys for who manages the
 * site; Ghost's Content API for any app with a key and its Admin API for any app with an Admin
 * API key, outside the API's session rules (no session, no staff second factor: a key is its own
 * proof). The Admin API writes blogs through the blogs feature's services (`host.blogWriting`). Its CORS header is set first, so the response
 * cache's hits carry it too.
 */
export const ghostApiFeature = defineFeature({
  name: 'ghost-api',
  hooks: { first: ({ app }) => app.addHook('onRequest', contentApiCors) },
  routes: ({ deps, blogWriting }) => [
    { visitors: 'anyone, outside the API', plugin: routes(contentApiRoutes, { content: contentOf(deps), integrations: integrationsOf(deps), limiter: deps.limiter }) },
    { visitors: 'anyone, outside the API', plugin: routes(adminApiRoutes, { admin: { ...contentOf(deps), writing: blogWriting }, integrations: integrationsOf(deps), limiter: deps.limiter }) },
    { visitors: 'site management', plugin: routes(integrationRoutes, { integrations: integrationsOf(deps) }) },
  ],
});
