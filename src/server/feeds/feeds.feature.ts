import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { feedRoutes } from './feeds.routes.js';

/** Feeds and sitemaps. */
export const feedsFeature = defineFeature({
  name: 'feeds',
  routes: ({ deps }) => [{ visitors: 'anyone, outside the API', plugin: routes(feedRoutes, deps) }],
});
