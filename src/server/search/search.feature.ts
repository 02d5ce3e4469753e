import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { searchRoutes } from './search.routes.js';

/** Searching blogs. */
export const searchFeature = defineFeature({
  name: 'search',
  routes: ({ deps }) => [{ visitors: 'anyone', plugin: routes(searchRoutes, deps) }],
});
