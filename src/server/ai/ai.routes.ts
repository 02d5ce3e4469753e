import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { AppError, forbidden } from '../errors.js';
import { may } from '../core/access.js';
import { toAiError } from './ai-provider.js';
import { createAiService, type AiService, type BlogGeneration } from './ai.service.js';
import { apiErrorSchema } from '../../shared/api-error.js';
import { messages } from '../../shared/messages.js';
import { neverCached } from '../cache/route-caching.js';


const STREAM_DESCRIPTION = [
  'A stream of server-sent events:',
  '`meta` `{ model, label }` first (the model that really answered, and the configured one),',
  'then `delta` `{ html }` each time the blog grows (the whole sanitised blog so far),',
  'then either `done` `{ html, model }` or `error` `{ error, message }`.',
  'Only `<h1>` and `<p>` elements, without attributes, are ever sent.',
].join(' ');

const shuttingDown = () =>
  new AppError(503, 'AI_UNAVAILABLE', 'The server is restarting, so the blog was not finished. Please try again in a moment.');

export const aiRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const service = createAiService({ db: deps.db, limiter: deps.limiter, ai: deps.config.ai });
  // A stream can run for a while: on shutdown it is ended at once with a reason. `preClose` runs
  // before the server stops listening; waiting there for the streams to end lets their
  // keep-alive connections count as idle, so the server closes them instead of waiting.
  const shutdown = new AbortController();
  const streaming = new Set<Promise<void>>();
  app.addHook('preClose', async () => {
    shutdown.abort();
    await Promise.allSettled(streaming);
  });

  app.get(
    '/api/ai/info',
    {
      config: neverCached,
      schema: {
        tags: ['ai'],
        summary: 'Who writes the generated blogs: the configured model, or the offline generator',
        response: { 200: z.object({ label: z.string() }), 401: apiErrorSchema },
      },
    },
    async () => ({ label: service.label }),
  );

  app.post(
    '/api/ai/generate',
    {
      schema: {
        tags: ['ai'],
        summary: 'Generate a random blog (title in h1, content in p), streamed as server-sent events',
        description:
          'Signed in, for the roles that write blogs (`ai:generate`; a Reader gets 403). Limited per user per minute and per day (429), and to one generation ' +
          'at a time (409). Failures before the first piece of the reply answer with a JSON error; ' +
          'later ones arrive as an `error` event.',
        response: {
          200: { description: STREAM_DESCRIPTION, content: { 'text/event-stream': { schema: z.string() } } },
          401: apiErrorSchema,
          403: apiErrorSchema,
          409: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
          503: apiErrorSchema,
          504: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { user } = request;
      // Before the limits and the lease: a refused account spends nothing of anyone's.
      if (!may(deps.config, user, { ai: 'generate' })) throw forbidden(messages.readersCannotGenerate);
      // The provider is paid by the token: a reader who leaves stops the generation.
      const clientGone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) clientGone.abort();
      });
      const signal = AbortSignal.any([clientGone.signal, shutdown.signal]);

      let generation: BlogGeneration;
      try {
        generation = await service.start(user.id, signal);
      } catch (err) {
        if (shutdown.signal.aborted && !clientGone.signal.aborted) throw shuttingDown();
        if (!clientGone.signal.aborted) throw err;
        // Nobody is left to read an error.
        void reply.hijack();
        reply.raw.destroy();
        return;
      }

      // Hijacking skips Fastify's sending of the headers set so far (security headers included).
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      void reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // Proxies such as nginx would otherwise hold the events back.
        'x-accel-buffering': 'no',
      });
      const signals = { clientGone: clientGone.signal, shutdown: shutdown.signal };
      const stream = streamGeneration(reply.raw, generation, service, signals, request.log);
      streaming.add(stream);
      try {
        await stream;
      } finally {
        streaming.delete(stream);
      }
    },
  );
};

async function streamGeneration(
  res: ServerResponse,
  generation: BlogGeneration,
  service: AiService,
  { clientGone, shutdown }: { clientGone: AbortSignal; shutdown: AbortSignal },
  log: FastifyBaseLogger,
): Promise<void> {
  const send = (event: string, data: object) => {
    if (!res.writableEnded && !res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  send('meta', { model: generation.model, label: service.label });
  try {
    let html = '';
    for await (html of generation.documents()) send('delta', { html });
    if (clientGone.aborted) return;
    if (shutdown.aborted) send('error', errorEvent(shuttingDown()));
    else send('done', { html, model: generation.model });
  } catch (err) {
    const error = shutdown.aborted ? shuttingDown() : toAiError(err);
    if (!clientGone.aborted) {
      if (error.statusCode >= 500) log.warn({ err: error, cause: error.cause }, `AI generation failed: ${error.message}`);
      send('error', errorEvent(error));
    }
  } finally {
    await generation.close().catch((err: unknown) => log.error({ err }, 'could not release the AI generation lease'));
    res.end();
  }
}

function errorEvent(error: AppError) {
  return { error: error.code, message: error.message };
}
