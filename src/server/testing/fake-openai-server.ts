import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A small OpenAI-compatible chat-completions server for tests, on 127.0.0.1 and a random port.
 * It records every request it receives and answers `POST {url}/chat/completions` the way
 * `setBehaviour` says (until told otherwise): a real SSE stream, an error status, no answer at
 * all, a stream cut short, or a stream with a line that is not JSON. Self-contained (node:http
 * only) so route tests and Playwright runs can start it too.
 */

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Node's lower-cased headers, `authorization` included. */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON (undefined when empty). */
  body: unknown;
  /** Becomes true if the client closed the connection before the answer was complete. */
  aborted: boolean;
}

export type Behaviour =
  /**
   * Streams `text` split into `chunks` pieces, as model `model`, `delayMs` apart; with `held`, the
   * first piece goes at once and the rest only when `held` settles (so a test can see what the
   * client did with one piece while the provider still has the others).
   */
  | { kind: 'stream'; text: string; chunks?: number; model?: string; delayMs?: number; held?: Promise<unknown> }
  /** Answers with this status and an OpenAI-style `{ error: { message, type, code } }` body. */
  | { kind: 'fail'; status: number; message?: string }
  /** Reads the request and never answers (for timeouts). */
  | { kind: 'hang' }
  /**
   * Sends the first `sendChunks` (default 2) of `chunks` pieces of `text`, then destroys the
   * socket (`end: 'destroy'`, default) or ends the response cleanly with no finish_reason and
   * no `[DONE]` (`end: 'close'`).
   */
  | {
      kind: 'cut'; text: string; chunks?: number; sendChunks?: number; model?: string;
      end?: 'destroy' | 'close'; roleChunk?: boolean;
    }
  /** Sends `sendChunks` good chunks of `text` (default none), then `data: not json`. */
  | { kind: 'malformed'; text?: string; chunks?: number; sendChunks?: number; model?: string; roleChunk?: boolean };

/*
 * Streams start, as OpenAI's do, with a chunk naming the role and carrying no text; for 'cut'
 * and 'malformed', `roleChunk: false` leaves it out so the failure hits the very first event.
 */

export interface FakeOpenAiServer {
  /** Base URL including `/v1`, for `AI_BASE_URL`. */
  url: string;
  requests: RecordedRequest[];
  setBehaviour(behaviour: Behaviour): void;
  close(): Promise<void>;
}

export const FAKE_MODEL = 'gpt-3.5-turbo-0125';
export const FAKE_BLOG =
  '<h1>The Fake Server Blog</h1><p>This reply comes from the test server.</p><p>It streams in small pieces.</p>';

const ERROR_TYPES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
};

/** `text` cut into `count` consecutive, non-empty pieces (fewer if the text is shorter). */
export function splitIntoChunks(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let behaviour: Behaviour = { kind: 'stream', text: FAKE_BLOG, chunks: 5 };
  let completionCount = 0;

  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (part: Buffer) => body.push(part));
    req.on('end', () => {
      const text = Buffer.concat(body).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: parseBody(text), aborted: false,
      };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished && !cutOnPurpose.has(res)) recorded.aborted = true;
      });
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/chat/completions')) {
        sendError(res, 404, `Unknown path ${req.url ?? ''}`);
        return;
      }
      completionCount += 1;
      // A client that goes away mid-answer is expected here, not a failure of the server.
      res.on('error', () => {});
      answer(res, behaviour, `chatcmpl-fake-${completionCount}`).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setBehaviour(next) {
      behaviour = next;
    },
    close() {
      // Hanging and streaming requests would otherwise keep `close` waiting forever.
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendError(res: ServerResponse, status: number, message?: string): void {
  const { type, code } = ERROR_TYPES[status] ?? { type: 'server_error', code: null };
  const body = JSON.stringify({
    error: { message: message ?? `Fake provider error ${status}`, type, param: null, code },
  });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function chunkEvent(id: string, model: string, delta: object, finishReason: string | null): string {
  const chunk = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Responses the server itself broke off (behaviour 'cut'), so they do not count as aborted. */
const cutOnPurpose = new WeakSet<ServerResponse>();

async function answer(res: ServerResponse, behaviour: Behaviour, id: string): Promise<void> {
  switch (behaviour.kind) {
    case 'fail':
      sendError(res, behaviour.status, behaviour.message);
      return;
    case 'hang':
      return;
    case 'stream': {
      const model = behaviour.model ?? FAKE_MODEL;
      startStream(res, id, model);
      for (const [index, piece] of splitIntoChunks(behaviour.text, behaviour.chunks ?? 5).entries()) {
        if (index === 1 && behaviour.held) await behaviour.held;
        if (behaviour.delayMs) await pause(behaviour.delayMs);
        if (res.destroyed) return;
        res.write(chunkEvent(id, model, { content: piece }, null));
      }
      if (res.destroyed) return;
      res.write(chunkEvent(id, model, {}, 'stop'));
      res.end('data: [DONE]\n\n');
      return;
    }
    case 'cut': {
      const model = behaviour.model ?? FAKE_MODEL;
      const pieces = splitIntoChunks(behaviour.text, behaviour.chunks ?? 5);
      startStream(res, id, model, behaviour.roleChunk);
      for (const piece of pieces.slice(0, behaviour.sendChunks ?? 2)) {
        res.write(chunkEvent(id, model, { content: piece }, null));
      }
      // Let the chunks reach the client before the connection goes.
      await pause(20);
      cutOnPurpose.add(res);
      if (behaviour.end === 'close') res.end();
      else res.socket?.destroy();
      return;
    }
    case 'malformed': {
      const model = behaviour.model ?? FAKE_MODEL;
      const pieces = splitIntoChunks(behaviour.text ?? FAKE_BLOG, behaviour.chunks ?? 5);
      startStream(res, id, model, behaviour.roleChunk);
      for (const piece of pieces.slice(0, behaviour.sendChunks ?? 0)) {
        res.write(chunkEvent(id, model, { content: piece }, null));
      }
      res.write('data: not json\n\n');
      res.write(chunkEvent(id, model, {}, 'stop'));
      res.end('data: [DONE]\n\n');
      return;
    }
  }
}

function startStream(res: ServerResponse, id: string, model: string, roleChunk = true): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if (roleChunk) res.write(chunkEvent(id, model, { role: 'assistant', content: '' }, null));
  else res.flushHeaders();
}
