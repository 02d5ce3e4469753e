import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { registerSubscriptionJobs } from './new-post-mail.js';
import { subscribersAdminRoutes } from './subscribers-admin.routes.js';
import { subscriptionLinkRoutes, subscriptionRoutes, subscriptionSignedInRoutes } from './subscriptions.routes.js';

/** Subscribing to a writer's new posts, and the mail that announces them (a blog-event consumer). */
export const subscriptionsFeature = defineFeature({
  name: 'subscriptions',
  routes: ({ deps }) => [
    { visitors: 'anyone, outside the API', plugin: routes(subscriptionLinkRoutes, deps) },
    { visitors: 'anyone', plugin: routes(subscriptionRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(subscriptionSignedInRoutes, deps) },
    { visitors: 'site management', plugin: routes(subscribersAdminRoutes, deps) },
  ],
  consumers: ({ app, deps, blogEvents, mail }) =>
    registerSubscriptionJobs(deps.queue, blogEvents, { db: deps.db, storage: deps.storage, config: deps.config, siteSettings: deps.siteSettings, log: app.log.child({ module: 'subscriptions' }), send: mail.send, transport: mail.transport }),
});
