import type { AppDeps } from '../app-deps.js';
import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { integrationRoutes } from './integrations.routes.js';
import type { IntegrationsDeps } from './integrations.service.js';

const integrationsOf = (deps: AppDeps): IntegrationsDeps => ({ db: deps.db, secret: deps.config.authSecret, publicUrl: deps.config.publicUrl });

/** Ghost's APIs (issue 60, docs/apis.md): the integrations and their keys for who manages the site. */
export const ghostApiFeature = defineFeature({
  name: 'ghost-api',
  routes: ({ deps }) => [{ visitors: 'site management', plugin: routes(integrationRoutes, { integrations: integrationsOf(deps) }) }],
});
