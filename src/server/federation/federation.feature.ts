import type { FastifyInstance } from 'fastify';
import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { createFederationLoader, registerFederationJobs, registerFederationKvCleanup, type FederationLoader } from './federation-loader.js';
import { federationProtocolRoutes, federationRoutes, registerArticleNegotiation } from './federation.routes.js';

/** Each app's loader (none with FEDERATION=false), made before the response cache's hook. */
const loaders = new WeakMap<FastifyInstance, FederationLoader>();

/**
 * ActivityPub (docs/federation.md): with FEDERATION=false, no route, hook or job of it exists. Its
 * hook comes before the response cache's, so a server asking for an Article never gets a cached
 * page; its blog-event consumer subscribes there too, right after the cache's own.
 */
export const federationFeature = defineFeature({
  name: 'federation',
  hooks: {
    beforeResponseCache: ({ app, deps, blogEvents }) => {
      if (!deps.config.federation.enabled) return;
      const loadFederation = createFederationLoader({
        config: deps.config,
        db: deps.db,
        storage: deps.storage,
        queue: deps.queue,
        contentChanges: deps.contentChanges,
        siteSettings: deps.siteSettings,
      });
      loaders.set(app, loadFederation);
      registerFederationJobs(deps.queue, blogEvents, deps.db, loadFederation);
      registerArticleNegotiation(app, { loadFederation });
    },
  },
  routes: ({ app, deps }) => {
    const loadFederation = loaders.get(app);
    if (!loadFederation) return [];
    return [
      { visitors: 'anyone, outside the API', plugin: routes(federationProtocolRoutes, { ...deps, loadFederation }) },
      { visitors: 'signed-in', plugin: routes(federationRoutes, { ...deps, loadFederation }) },
    ];
  },
  jobs: ({ app, jobs, deps }) => {
    if (loaders.has(app)) registerFederationKvCleanup(jobs, deps.db);
  },
});
