import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';
import { commentEmailSettingSchema, unsubscribeInputSchema } from '../../shared/comment-schema.js';
import type { AppDeps } from '../app-deps.js';
import { clientKey } from '../rate-limit/rate-limit.js';
import { getCommentMailSetting, setCommentMailSetting, unsubscribeWithToken } from './comment-mail.service.js';
import { privateAnswer } from '../cache/route-caching.js';

/** Unsubscribing, per client address: a person clicks once; a stop for anyone guessing tokens. */
export const UNSUBSCRIBE_RATE_LIMIT = { max: 30, windowSeconds: 10 * 60 };
const TOO_MANY_UNSUBSCRIBES = 'Too many attempts to unsubscribe. Please wait a few minutes and try again.';

/** The setting 'E-mail me about comments and replies', and the two ways an e-mail's link turns it off. */
export const commentMailRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/api/settings/comment-emails',
    {
      config: privateAnswer,
      schema: {
        tags: ['comments'],
        summary: 'Whether the signed-in user is e-mailed about comments on their blogs and replies to them',
        response: { 200: commentEmailSettingSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const user = await deps.sessions.requireUser(request);
      return getCommentMailSetting(deps, user.id);
    },
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
      preValidation: async (request) => {
        await deps.sessions.requireUser(request);
      },
    },
    async (request) => {
      const user = await deps.sessions.requireUser(request);
      return setCommentMailSetting(deps, user.id, request.body.enabled);
    },
  );

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

  // RFC 8058 one-click: the mail program POSTs `List-Unsubscribe=One-Click` to the link itself,
  // from its own servers (no Origin, no cookies), form-encoded or multipart. The token in the URL
  // is all the proof there is, so the body is read for nothing and may be of any type.
  await app.register(async (scope) => {
    const oneClick = scope.withTypeProvider<ZodTypeProvider>();
    oneClick.removeAllContentTypeParsers();
    oneClick.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));
    oneClick.post(
      '/unsubscribe',
      {
        schema: {
          tags: ['comments'],
          summary: 'RFC 8058 one-click unsubscribe from e-mails about comments (the link of the `List-Unsubscribe` header)',
          querystring: z.object({ token: z.string().max(500).default('') }),
          response: { 200: z.string(), 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
        },
      },
      async (request, reply) => {
        await deps.limiter.enforce(`unsubscribe:${clientKey(request.ip)}`, UNSUBSCRIBE_RATE_LIMIT, TOO_MANY_UNSUBSCRIBES);
        await unsubscribeWithToken(deps, request.query.token);
        return reply.type('text/plain; charset=utf-8').send('You will no longer get e-mails about comments and replies.');
      },
    );
  });
};
