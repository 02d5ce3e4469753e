import { routes } from '../core/visitor-contexts.js';
import type { AppDeps } from '../app-deps.js';
import { defineFeature } from '../feature.js';
import { outgoingRequestGuard } from '../http/public-address.js';
import { registerWebhookDelivery } from './webhook-delivery.js';
import { registerWebhookEvents } from './webhook-events.js';
import { webhookRoutes } from './webhooks.routes.js';
import type { WebhooksDeps } from './webhooks.service.js';

/** One `WebhooksDeps` per app, for its routes and its deliveries alike. */
const made = new WeakMap<AppDeps, WebhooksDeps>();
function webhooksOf(deps: AppDeps): WebhooksDeps {
  let webhooks = made.get(deps);
  if (!webhooks) {
    // Deliveries only to public addresses unless WEBHOOKS_ALLOW_PRIVATE_ADDRESS (docs/webhooks.md).
    const { config } = deps;
    webhooks = { db: deps.db, queue: deps.queue, guard: outgoingRequestGuard({ allowPrivateAddress: config.webhooks.allowPrivateAddress }), publicUrl: config.publicUrl, maxAttempts: config.webhooks.maxAttempts };
    made.set(deps, webhooks);
  }
  return webhooks;
}

/** Webhooks: the settings for who manages the site, a blog-event consumer, and the queued deliveries. */
export const webhooksFeature = defineFeature({
  name: 'webhooks',
  routes: ({ deps }) => [{ visitors: 'site management', plugin: routes(webhookRoutes, { ...deps, webhooks: webhooksOf(deps) }) }],
  consumers: ({ deps, blogEvents }) =>
    registerWebhookEvents(deps.queue, blogEvents, { db: deps.db, storage: deps.storage, publicUrl: deps.config.publicUrl, maxAttempts: deps.config.webhooks.maxAttempts }),
  jobs: ({ deps }) => registerWebhookDelivery(deps.queue, { ...webhooksOf(deps), userAgent: `BloggingSite-Webhooks/1.0 (+${deps.config.publicUrl})` }),
});
