import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { siteFileRoutes, siteSettingsAdminRoutes } from './settings.routes.js';

/** The site's settings: the manifest and icons for anyone, the settings form for who manages the site. */
export const settingsFeature = defineFeature({
  name: 'settings',
  routes: ({ deps }) => [
    { visitors: 'anyone, outside the API', plugin: routes(siteFileRoutes, deps) },
    { visitors: 'site management', plugin: routes(siteSettingsAdminRoutes, deps) },
  ],
});
