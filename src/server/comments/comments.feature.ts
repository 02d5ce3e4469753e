import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { commentMailLinkRoutes, commentMailRoutes, commentMailSettingsRoutes } from './comment-mail.routes.js';
import { commentRoutes, commentSignedInRoutes } from './comments.routes.js';

/** Comments and the mail about them (its one-click unsubscribe link, its buttons, its setting). */
export const commentsFeature = defineFeature({
  name: 'comments',
  routes: ({ deps }) => [
    { visitors: 'anyone, outside the API', plugin: routes(commentMailLinkRoutes, deps) },
    { visitors: 'anyone', plugin: routes(commentRoutes, deps) },
    { visitors: 'anyone', plugin: routes(commentMailRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(commentSignedInRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(commentMailSettingsRoutes, deps) },
  ],
});
