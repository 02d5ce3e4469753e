import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { moderationRoutes, reportRoutes } from './moderation.routes.js';

/** Reports from readers, and the moderators' overview, actions and queue. */
export const moderationFeature = defineFeature({
  name: 'moderation',
  routes: ({ deps }) => [
    { visitors: 'signed-in', plugin: routes(reportRoutes, deps) },
    { visitors: 'moderation', plugin: routes(moderationRoutes, deps) },
  ],
});
