import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { paths } from '../../shared/paths.js';
import {
  subscribeInputSchema,
  subscribeResultSchema,
  subscriberCountSchema,
  subscriptionByTokenSchema,
  subscriptionListSchema,
  subscriptionTokenInputSchema,
  unsubscribeResultSchema,
} from '../../shared/subscription-schema.js';
import type { AppDeps } from '../app-deps.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import {
  confirmByToken,
  describeByToken,
  listOwnSubscriptions,
  removeOwnSubscription,
  subscribe,
  subscriberCount,
  SUBSCRIPTION_LINK_LIMIT,
  TOO_MANY_LINK_USES,
  unsubscribeByToken,
  type SubscriptionDeps,
} from './subscriptions.service.js';
import { privateAnswer } from '../cache/route-caching.js';
import { idParams } from '../http/ids.js';
import { ownDataRead } from '../cache/own-data-read.js';
import { registerOneClickUnsubscribe } from '../http/one-click-unsubscribe.js';

const subscriptionDeps = (deps: AppDeps) => (log: SubscriptionDeps['log']): SubscriptionDeps => ({ db: deps.db, mailer: deps.mailer, limiter: deps.limiter, config: deps.config, siteSettings: deps.siteSettings, log });
const linkUseLimit = (deps: AppDeps) => (ip: string) => deps.limiter.enforce(`subscription-link:${clientKey(ip)}`, SUBSCRIPTION_LINK_LIMIT, TOO_MANY_LINK_USES);

/** E-mail subscriptions to the site or to an author: subscribe, and confirm or unsubscribe with an e-mail's token. */
export const subscriptionRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = subscriptionDeps(deps);
  const limitLinkUse = linkUseLimit(deps);

  app.post(
    '/api/subscriptions',
    {
      schema: {
        tags: ['subscriptions'],
        summary: 'Subscribe an address to new blogs of the site, or of one author (`authorId`)',
        description: 'Signed in with the own verified address: subscribed at once. Otherwise a confirmation e-mail is sent. The answer does not tell whether the address was subscribed before.',
        body: subscribeInputSchema,
        response: { 200: subscribeResultSchema, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = await deps.sessions.optionalUser(request);
      return subscribe(serviceDeps(request.log), viewer, request.body, request.ip);
    },
  );

  app.get(
    '/api/subscriptions/by-token',
    {
      config: privateAnswer,
      schema: {
        tags: ['subscriptions'],
        summary: 'What a confirmation or unsubscribe link is about',
        querystring: subscriptionTokenInputSchema,
        response: { 200: subscriptionByTokenSchema, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      await limitLinkUse(request.ip);
      return describeByToken(serviceDeps(request.log), request.query.token);
    },
  );

  // The buttons of the pages a confirmation or an unsubscribe link opens: a GET of the link (a
  // scanner) does nothing. The token is the proof; no session is needed.
  const linkActions = [
    {
      path: '/api/subscriptions/confirm',
      summary: 'Confirm a subscription with the token of its confirmation e-mail',
      result: subscribeResultSchema,
      act: confirmByToken,
      status: 'subscribed',
    },
    {
      path: '/api/subscriptions/unsubscribe',
      summary: "End a subscription with the token of an e-mail's unsubscribe link (no session needed)",
      result: unsubscribeResultSchema,
      act: unsubscribeByToken,
      status: 'unsubscribed',
    },
  ] as const;
  for (const { path, summary, result, act, status } of linkActions) {
    app.post(
      path,
      {
        schema: {
          tags: ['subscriptions'],
          summary,
          body: subscriptionTokenInputSchema,
          response: { 200: result, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
        },
      },
      async (request) => {
        await limitLinkUse(request.ip);
        await act(serviceDeps(request.log), request.body.token);
        return { status };
      },
    );
  }

};

/** The signed-in reader's own subscriptions, and an author's count of subscribers. */
export const subscriptionSignedInRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = subscriptionDeps(deps);

  app.get(
    '/api/settings/subscriptions',
    ownDataRead({ tags: ['subscriptions'], summary: "The signed-in reader's confirmed subscriptions", response: { 200: subscriptionListSchema } }),
    async (request) => ({ items: await listOwnSubscriptions(serviceDeps(request.log), request.user) }),
  );

  app.delete(
    '/api/settings/subscriptions/:id',
    {
      schema: {
        tags: ['subscriptions'],
        summary: 'Remove one of the signed-in reader’s subscriptions',
        params: idParams,
        response: { 200: unsubscribeResultSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      await removeOwnSubscription(serviceDeps(request.log), request.user, request.params.id);
      return { status: 'unsubscribed' as const };
    },
  );

  app.get(
    '/api/authors/:id/subscribers',
    ownDataRead({
      tags: ['subscriptions'],
      summary: 'How many confirmed subscribers the author has (the author only)',
      params: idParams,
      response: { 200: subscriberCountSchema, 403: apiErrorSchema },
    }),
    async (request) => subscriberCount(serviceDeps(request.log), request.user, request.params.id),
  );
};

/** Outside the API: what the mail program posts to unsubscribe. */
export const subscriptionLinkRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const serviceDeps = subscriptionDeps(deps);
  const limitLinkUse = linkUseLimit(deps);

  // The link of the `List-Unsubscribe` header; a GET of the same URL is the page with the 'Unsubscribe' button.
  await registerOneClickUnsubscribe(app, {
    path: paths.unsubscribeSubscription(''),
    tags: ['subscriptions'],
    summary: 'RFC 8058 one-click unsubscribe from subscription e-mails (the link of the `List-Unsubscribe` header)',
    unsubscribe: async (request, token) => {
      await limitLinkUse(request.ip);
      await unsubscribeByToken(serviceDeps(request.log), token);
    },
    done: 'You are unsubscribed.',
  });
};
