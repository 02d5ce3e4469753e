import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { sitePagesAdminRoutes, sitePagesPublicRoutes } from './site-pages.routes.js';

/** The site's own pages (About, Support): read by anyone, edited by who manages the site. */
export const sitePagesFeature = defineFeature({
  name: 'site-pages',
  routes: ({ deps }) => [
    { visitors: 'anyone', plugin: routes(sitePagesPublicRoutes, deps) },
    { visitors: 'site management', plugin: routes(sitePagesAdminRoutes, deps) },
  ],
});
