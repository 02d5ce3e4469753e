import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api-error.js';

/**
 * RFC 8058 one-click unsubscribe: the mail program POSTs `List-Unsubscribe=One-Click` to the link
 * itself, from its own servers (no Origin, no cookies), form-encoded, multipart or of any other
 * type. The token in the URL is all the proof there is, so the body is read for nothing. The
 * route answers `done` as plain text once `unsubscribe` has taken the token.
 */
export async function registerOneClickUnsubscribe(
  app: Pick<FastifyInstance, 'register'>,
  route: { path: string; tags: string[]; summary: string; unsubscribe: (request: FastifyRequest, token: string) => Promise<void>; done: string },
): Promise<void> {
  await app.register(async (scope) => {
    const oneClick = scope.withTypeProvider<ZodTypeProvider>();
    oneClick.removeAllContentTypeParsers();
    oneClick.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));
    oneClick.post(
      route.path,
      {
        schema: {
          tags: route.tags,
          summary: route.summary,
          querystring: z.object({ token: z.string().max(500).default('') }),
          response: { 200: z.string(), 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
        },
      },
      async (request, reply) => {
        await route.unsubscribe(request, request.query.token);
        return reply.type('text/plain; charset=utf-8').send(route.done);
      },
    );
  });
}
