import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { importRoutes } from './import.routes.js';
import { myDataRoutes } from './my-data.routes.js';

/** One's own data to take away, and imports for the moderators. */
export const portabilityFeature = defineFeature({
  name: 'portability',
  routes: ({ deps }) => [
    { visitors: 'signed-in', plugin: routes(myDataRoutes, deps) },
    { visitors: 'moderation', plugin: routes(importRoutes, deps) },
  ],
});
