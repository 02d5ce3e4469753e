import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { tagRoutes } from './tags.routes.js';

/** Tags. */
export const tagsFeature = defineFeature({
  name: 'tags',
  routes: ({ deps }) => [{ visitors: 'anyone', plugin: routes(tagRoutes, deps) }],
});
