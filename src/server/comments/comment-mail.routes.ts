import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { commentEmailSettingSchema, unsubscribeInputSchema } from '../../shared/comment-schema.js';
import type { AppDeps } from '../app-deps.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { getCommentMailSetting, setCommentMailSetting, unsubscribeWithToken } from './comment-mail.service.js';
import { ownDataRead } from '../cache/own-data-read.js';
import { registerOneClickUnsubscribe } from '../http/one-click-unsubscribe.js';

/** Unsubscribing, per client address: a person clicks once; a stop for anyone guessing tokens. */
export const UNSUBSCRIBE_RATE_LIMIT = { max: 30, windowSeconds: 10 * 60 };
const TOO_MANY_UNSUBSCRIBES = 'Too many attempts to unsubscribe. Please wait a few minutes and try again.';

/** The setting 'E-mail me about comments and replies' (signed in). */
export const commentMailSettingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/settings/comment-emails',
    ownDataRead({
      tags: ['comments'],
      summary: 'Whether the signed-in user is e-mailed about comments on their blogs and replies to them',
      response: { 200: commentEmailSettingSchema },
    }),
    async (request) => getCommentMailSetting(deps, request.user.id),
  );

  app.put(
    '/api/settings/comment-emails',
    {
      schema: {
        tags: ['comments'],
        summary: 'Turn e-mails about comments and replies on or off',
        body: commentEmailSettingSchema,
        response: { 200: commentEmailSettingSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => setCommentMailSetting(deps, request.user.id, request.body.enabled),
  );
};

/** Turning the setting off with an e-mail link's token (no session needed): the button of the page the link opens. */
export const commentMailRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {

  // The button of the page the e-mail's link opens (a plain GET of the link changes nothing).
  app.post(
    '/api/comment-emails/unsubscribe',
    {
      schema: {
        tags: ['comments'],
        summary: "Turn e-mails about comments off with an e-mail's unsubscribe token (no session needed)",
        body: unsubscribeInputSchema,
        response: { 200: commentEmailSettingSchema, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      await deps.limiter.enforce(`unsubscribe:${clientKey(request.ip)}`, UNSUBSCRIBE_RATE_LIMIT, TOO_MANY_UNSUBSCRIBES);
      await unsubscribeWithToken(deps, request.body.token);
      return { enabled: false };
    },
  );
};

/** The other way: the link of the `List-Unsubscribe` header, outside the API (the mail program posts it). */
export const commentMailLinkRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  await registerOneClickUnsubscribe(app, {
    path: '/unsubscribe',
    tags: ['comments'],
    summary: 'RFC 8058 one-click unsubscribe from e-mails about comments (the link of the `List-Unsubscribe` header)',
    unsubscribe: async (request, token) => {
      await deps.limiter.enforce(`unsubscribe:${clientKey(request.ip)}`, UNSUBSCRIBE_RATE_LIMIT, TOO_MANY_UNSUBSCRIBES);
      await unsubscribeWithToken(deps, token);
    },
    done: 'You will no longer get e-mails about comments and replies.',
  });
};
