import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { signUpUser, type TestUser } from '../testing/test-users.js';
import { BLOG_PROMPT } from './ai-provider.js';
import { expectSpecBlogRequest } from '../testing/ai-requests.js';
import { AppError } from '../errors.js';
import type { BlogGenerator } from './ai-provider.js';
import { createRateLimiter } from '../rate-limit/rate-limit.js';
import { ALREADY_RUNNING_MESSAGE, createAiService } from './ai.service.js';
import { OFFLINE_MODEL_LABEL } from './offline-generator.js';
import {
  FAKE_BLOG, FAKE_MODEL, startFakeOpenAiServer, type FakeOpenAiServer,
} from '../testing/fake-openai-server.js';

const KEY = 'test-key-123';

interface SseEvent {
  event: string;
  data: Record<string, string>;
}

interface GenerateResult {
  status: number;
  headers: Headers;
  /** The whole body as text (events or a JSON error). */
  text: string;
  events: SseEvent[];
  json?: { error: string; message: string };
}

function parseEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
      return { event, data: JSON.parse(data) as Record<string, string> };
    });
}

async function readResult(response: Response): Promise<GenerateResult> {
  const text = await response.text();
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  return {
    status: response.status,
    headers: response.headers,
    text,
    events: isStream ? parseEvents(text) : [],
    json: isStream ? undefined : (JSON.parse(text) as GenerateResult['json']),
  };
}

const eventsNamed = (result: GenerateResult, name: string) => result.events.filter((e) => e.event === name);

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A listening app: SSE, disconnects and parallel requests need a real socket. */
async function listening(t: TestApp): Promise<string> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

function generateRequest(base: string, user: TestUser | null, signal?: AbortSignal) {
  return fetch(`${base}/api/ai/generate`, {
    method: 'POST',
    headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) },
    signal,
  });
}

const generate = async (base: string, user: TestUser | null) => readResult(await generateRequest(base, user));

/** Every outgoing fetch of this process that carried the key: the SDK uses the global fetch. */
const keyedRequests: string[] = [];
const realFetch = globalThis.fetch;

describe('POST /api/ai/generate with a provider', () => {
  let fake: FakeOpenAiServer;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
      const url = input instanceof Request ? input.url : String(input);
      let keyed = false;
      headers.forEach((value) => {
        if (value.includes(KEY)) keyed = true;
      });
      if (keyed) keyedRequests.push(url);
      return realFetch(input, init);
    });
    fake = await startFakeOpenAiServer();
    t = await createTestApp({
      AI_BASE_URL: fake.url,
      AI_API_KEY: KEY,
      AI_TIMEOUT_MS: '2000',
      AI_REQUESTS_PER_MINUTE: '2',
    });
    base = await listening(t);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t.close();
    await fake.close().catch(() => undefined);
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 5 });
  });

  it('refuses signed-out callers with 401, and asks the provider nothing', async () => {
    const result = await generate(base, null);
    expect(result.status).toBe(401);
    expect(result.json?.error).toBe('UNAUTHORIZED');
    const info = await fetch(`${base}/api/ai/info`);
    expect(info.status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it('tells a signed-in user which model is configured', async () => {
    const user = await signUpUser(t.app);
    const info = await fetch(`${base}/api/ai/info`, { headers: { cookie: user.cookie } });
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({ label: 'gpt-3.5-turbo' });
  });

  it('sends the spec request to the provider, with the key, and to nobody else', async () => {
    keyedRequests.length = 0;
    const user = await signUpUser(t.app);
    const result = await generate(base, user);
    expect(result.status).toBe(200);

    expect(fake.requests).toHaveLength(1);
    expectSpecBlogRequest(fake.requests[0], KEY, 'gpt-3.5-turbo');
    expect(BLOG_PROMPT).toMatch(/assistant for a blogging platform/);
    expect(BLOG_PROMPT).toMatch(/random blog/);
    expect(BLOG_PROMPT).toMatch(/<h1>/);
    expect(BLOG_PROMPT).toMatch(/<p>/);

    expect(keyedRequests).toEqual([`${fake.url}/chat/completions`]);
    // Nothing the browser receives carries the key.
    expect(result.text).not.toContain(KEY);
    const headerValues: string[] = [];
    result.headers.forEach((value) => headerValues.push(value));
    expect(headerValues.join('\n')).not.toContain(KEY);
  });

  it('streams meta, growing deltas and done, naming the model that really answered', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 6, model: FAKE_MODEL, delayMs: 20 });
    const user = await signUpUser(t.app);
    const result = await generate(base, user);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(result.headers.get('cache-control')).toContain('no-cache');
    // Security headers survive the hand-written response.
    expect(result.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');

    expect(result.events[0]).toEqual({ event: 'meta', data: { model: FAKE_MODEL, label: 'gpt-3.5-turbo' } });
    const deltas = eventsNamed(result, 'delta').map((e) => e.data.html!);
    expect(deltas.length).toBeGreaterThan(2);
    for (let i = 1; i < deltas.length; i++) expect(deltas[i]!.length).toBeGreaterThanOrEqual(deltas[i - 1]!.length);
    expect(result.events.at(-1)).toEqual({ event: 'done', data: { html: FAKE_BLOG, model: FAKE_MODEL } });
    expect(deltas.at(-1)).toBe(FAKE_BLOG);
    expect(eventsNamed(result, 'error')).toEqual([]);
  });

  it('sends each piece as it arrives, not at the end', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 4, held });
    const user = await signUpUser(t.app);
    const response = await generateRequest(base, user);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    // The provider has sent its first piece and holds the other three: the browser has a delta.
    while (!received.includes('event: delta')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    expect(received).toContain('event: delta');
    expect(received).not.toContain('event: done');
    release();
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    expect(received).toContain('event: done');
  });

  it('sanitises the reply: no script, event handler, link or image reaches the browser', async () => {
    const hostile =
      '<h1 onclick="steal()">Safe Title</h1><script>alert(1)</script>' +
      '<p style="color:red" onmouseover="x()">Para <a href="https://evil.example/">link text</a></p>' +
      '<img src="x" onerror="alert(2)"><p>End<iframe src="https://evil.example/"></iframe></p>';
    fake.setBehaviour({ kind: 'stream', text: hostile, chunks: 9 });
    const user = await signUpUser(t.app);
    const result = await generate(base, user);
    expect(result.status).toBe(200);
    expect(result.events.at(-1)).toEqual({
      event: 'done',
      data: { html: '<h1>Safe Title</h1><p>Para link text</p><p>End</p>', model: FAKE_MODEL },
    });
    for (const banned of ['<script', 'alert', 'onclick', 'onerror', 'onmouseover', 'href', '<a', '<img', 'iframe', 'style']) {
      expect(result.text).not.toContain(banned);
    }
  });

  it('never shows a half-written tag while streaming', async () => {
    fake.setBehaviour({ kind: 'stream', text: '<h1>Title</h1><script>bad()</script><p>Body text here</p>', chunks: 25 });
    const user = await signUpUser(t.app);
    const result = await generate(base, user);
    for (const delta of eventsNamed(result, 'delta')) {
      expect(delta.data.html).not.toMatch(/scr|&lt;|bad/);
    }
    expect(result.events.at(-1)?.data.html).toBe('<h1>Title</h1><p>Body text here</p>');
  });

  it('a reply with nothing left after sanitising is an error, not an empty blog', async () => {
    fake.setBehaviour({ kind: 'stream', text: '<script>alert(1)</script><img src=x>', chunks: 3 });
    const user = await signUpUser(t.app);
    const result = await generate(base, user);
    expect(result.events.at(-1)).toEqual({
      event: 'error',
      data: { error: 'AI_EMPTY', message: expect.stringMatching(/held no blog/) },
    });
  });

  describe('failures before the reply starts answer with a JSON error', () => {
    const cases = [
      { name: '401 from the provider', behaviour: { kind: 'fail', status: 401, message: `Incorrect API key provided: ${KEY}` }, status: 502, code: 'AI_KEY_REJECTED', message: /rejected this site's API key/ },
      { name: '429 from the provider', behaviour: { kind: 'fail', status: 429 }, status: 429, code: 'AI_RATE_LIMITED', message: /busy/ },
      { name: '500 from the provider', behaviour: { kind: 'fail', status: 500 }, status: 502, code: 'AI_UNAVAILABLE', message: /had a problem/ },
      { name: 'no answer (timeout)', behaviour: { kind: 'hang' }, status: 504, code: 'AI_TIMEOUT', message: /did not answer within 2 seconds/ },
      { name: 'a malformed first event', behaviour: { kind: 'malformed', roleChunk: false }, status: 502, code: 'AI_UNAVAILABLE', message: /could not be read/ },
      { name: 'a stream cut before its first event', behaviour: { kind: 'cut', text: FAKE_BLOG, sendChunks: 0, roleChunk: false }, status: 502, code: 'AI_UNAVAILABLE', message: /cut off/ },
    ] as const;
    for (const c of cases) {
      it(c.name, async () => {
        fake.setBehaviour(c.behaviour);
        const user = await signUpUser(t.app);
        const started = Date.now();
        const result = await generate(base, user);
        expect(result.status).toBe(c.status);
        expect(result.json).toEqual({ error: c.code, message: expect.stringMatching(c.message) });
        expect(result.text).not.toContain(KEY);
        expect(Date.now() - started).toBeLessThan(10_000);
      });
    }
  });

  describe('failures mid-stream end the stream with an error event', () => {
    const cases = [
      { name: 'the connection is cut', behaviour: { kind: 'cut', text: FAKE_BLOG, chunks: 5, sendChunks: 2 }, code: 'AI_UNAVAILABLE', message: /cut off/ },
      { name: 'the stream ends without finishing', behaviour: { kind: 'cut', text: FAKE_BLOG, chunks: 5, sendChunks: 2, end: 'close' }, code: 'AI_UNAVAILABLE', message: /cut off/ },
      { name: 'a malformed event', behaviour: { kind: 'malformed', text: FAKE_BLOG, chunks: 5, sendChunks: 2 }, code: 'AI_UNAVAILABLE', message: /could not be read/ },
      { name: 'the provider falls silent (timeout)', behaviour: { kind: 'stream', text: FAKE_BLOG, chunks: 2, delayMs: 2600 }, code: 'AI_TIMEOUT', message: /did not answer within 2 seconds/ },
    ] as const;
    for (const c of cases) {
      it(c.name, async () => {
        fake.setBehaviour(c.behaviour);
        const user = await signUpUser(t.app);
        const result = await generate(base, user);
        expect(result.status).toBe(200);
        expect(result.events[0]?.event).toBe('meta');
        expect(eventsNamed(result, 'done')).toEqual([]);
        expect(result.events.at(-1)).toEqual({ event: 'error', data: { error: c.code, message: expect.stringMatching(c.message) } });
      });
    }
  });

  it('a reader who leaves stops the provider, and frees the user for the next request', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 10, delayMs: 100 });
    const user = await signUpUser(t.app);
    const controller = new AbortController();
    const response = await generateRequest(base, user, controller.signal);
    expect(response.status).toBe(200);
    controller.abort();
    await waitFor(() => fake.requests[0]?.aborted === true);

    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 2 });
    // The lease is released once the server has noticed; it never takes long.
    let next: GenerateResult | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      next = await generate(base, user);
      if (next.status !== 409) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(next?.status).toBe(200);
    expect(next?.events.at(-1)?.event).toBe('done');
  });

  it('refuses a second request from the same user while the first runs, then allows one after', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 5, delayMs: 100 });
    const user = await signUpUser(t.app);
    const other = await signUpUser(t.app);
    const first = await generateRequest(base, user);
    expect(first.status).toBe(200);

    const second = await generate(base, user);
    expect(second.status).toBe(409);
    expect(second.json).toEqual({ error: 'AI_ALREADY_RUNNING', message: ALREADY_RUNNING_MESSAGE });
    // Another user is not held up.
    const otherResult = generate(base, other);

    const firstResult = await readResult(first);
    expect(firstResult.events.at(-1)?.event).toBe('done');
    expect((await otherResult).status).toBe(200);
    // The refused request did not count against the per-minute limit of 2.
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 2 });
    const third = await generate(base, user);
    expect(third.status).toBe(200);
  });

  it('refuses the parallel request also when it reaches another app process on the same database', async () => {
    const second = await buildApp({ config: t.config, database: t.database, logger: false });
    try {
      const secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
      fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 5, delayMs: 100 });
      const user = await signUpUser(t.app);
      const first = await generateRequest(base, user);
      expect(first.status).toBe(200);
      const parallel = await generate(secondBase, user);
      expect(parallel.status).toBe(409);
      expect(parallel.json?.message).toBe(ALREADY_RUNNING_MESSAGE);
      expect((await readResult(first)).events.at(-1)?.event).toBe('done');
      fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 2 });
      expect((await generate(secondBase, user)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('a lease left by a process that died blocks its user only until it expires', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 2 });
    const user = await signUpUser(t.app);
    const key = `ai:running:${user.id}`;
    await t.database.db
      .insertInto('rate_limits')
      .values({ key, count: 12345, reset_at: new Date(Date.now() + 60_000) })
      .execute();
    expect((await generate(base, user)).status).toBe(409);
    await t.database.db.updateTable('rate_limits').set({ reset_at: new Date(Date.now() - 1_000) }).where('key', '=', key).execute();
    expect((await generate(base, user)).status).toBe(200);
    // Released at the end: no row is left behind.
    const left = await t.database.db.selectFrom('rate_limits').select('key').where('key', '=', key).execute();
    expect(left).toEqual([]);
  });

  it('limits requests per user per minute with a 429 and a clear message', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 2 });
    const user = await signUpUser(t.app);
    const other = await signUpUser(t.app);
    expect((await generate(base, user)).status).toBe(200);
    expect((await generate(base, user)).status).toBe(200);
    const before = fake.requests.length;
    const third = await generate(base, user);
    expect(third.status).toBe(429);
    expect(third.json).toEqual({
      error: 'TOO_MANY_REQUESTS',
      message: 'You can generate 2 blogs a minute. Please wait a minute and try again.',
    });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fake.requests.length).toBe(before);
    // The limit is per user.
    expect((await generate(base, other)).status).toBe(200);
  });

  it('documents both routes in OpenAPI, the generator as an event stream', async () => {
    const response = await fetch(`${base}/api/openapi.json`);
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { summary?: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    const post = document.paths['/api/ai/generate']?.post;
    expect(post?.summary).toMatch(/Generate a random blog/);
    expect(Object.keys(post?.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
    expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(['401', '409', '429', '502', '504']));
    expect(document.paths['/api/ai/info']?.get).toBeDefined();
  });

  // Last: it shuts the fake provider down.
  it('provider down (connection refused): a 502 saying it could not be reached', async () => {
    await fake.close();
    const user = await signUpUser(t.app);
    const started = Date.now();
    const result = await generate(base, user);
    expect(result.status).toBe(502);
    expect(result.json).toEqual({ error: 'AI_UNAVAILABLE', message: expect.stringMatching(/could not be reached/) });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('POST /api/ai/generate without an API key (offline generator)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ AI_REQUESTS_PER_MINUTE: '10', AI_REQUESTS_PER_DAY: '2' });
    base = await listening(t);
  });
  afterAll(() => t.close());

  it('answers with a varied, readable blog from the offline generator', async () => {
    const user = await signUpUser(t.app);
    const info = await fetch(`${base}/api/ai/info`, { headers: { cookie: user.cookie } });
    expect(await info.json()).toEqual({ label: OFFLINE_MODEL_LABEL });

    const first = await generate(base, user);
    expect(first.status).toBe(200);
    expect(first.events[0]).toEqual({ event: 'meta', data: { model: OFFLINE_MODEL_LABEL, label: OFFLINE_MODEL_LABEL } });
    expect(eventsNamed(first, 'delta').length).toBeGreaterThan(5);
    const done = first.events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.model).toBe(OFFLINE_MODEL_LABEL);
    expect(done.data.html).toMatch(/^<h1>[^<]+<\/h1>(\n?<p>[^<]+<\/p>){3,}$/);

    const second = await generate(base, user);
    expect(second.events.at(-1)?.data.html).not.toBe(done.data.html);
  });

  it('limits requests per user per day with a 429 and a clear message', async () => {
    const user = await signUpUser(t.app);
    expect((await generate(base, user)).status).toBe(200);
    expect((await generate(base, user)).status).toBe(200);
    const third = await generate(base, user);
    expect(third.status).toBe(429);
    expect(third.json?.message).toBe("You have reached today's limit of 2 generated blogs. Please try again tomorrow.");
  });

  it('stops a reply that trickles on past the whole-run limit, and frees the user', async () => {
    let providerSignal: AbortSignal | undefined;
    const trickling: BlogGenerator = {
      label: 'trickle',
      generate: async (signal) => {
        providerSignal = signal;
        return {
          model: 'trickle-model',
          chunks: (async function* () {
            yield '<h1>Slow</h1>';
            while (!signal.aborted) {
              await new Promise((resolve) => setTimeout(resolve, 20));
              yield '<p>more</p>';
            }
          })(),
        };
      },
    };
    const service = createAiService({ db: t.database.db, limiter: createRateLimiter({ db: t.database.db, scale: 1, secret: t.config.authSecret }), ai: t.config.ai, generator: trickling, maxRunMs: 300 });
    const user = await signUpUser(t.app);
    const generation = await service.start(user.id, new AbortController().signal);
    const started = Date.now();
    const documents: string[] = [];
    const error = await (async () => {
      for await (const html of generation.documents()) documents.push(html);
    })().then(() => undefined, (err: unknown) => err);
    await generation.close();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('AI_TIMEOUT');
    expect((error as AppError).message).toMatch(/took too long/);
    expect(providerSignal?.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(documents[0]).toBe('<h1>Slow</h1>');
    // The user may ask again.
    const next = await service.start(user.id, new AbortController().signal);
    await next.close();
  });

  // Last: it closes the app.
  it('on shutdown, a running stream ends at once with a reason, and the app does not wait for it', async () => {
    const user = await signUpUser(t.app);
    const response = await generateRequest(base, user);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: delta')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${text}`);
      text += decoder.decode(value, { stream: true });
    }

    const started = Date.now();
    const closing = t.app.close();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await closing;
    expect(Date.now() - started).toBeLessThan(1_500);
    const events = parseEvents(text);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { error: 'AI_UNAVAILABLE', message: expect.stringMatching(/server is restarting/) },
    });
  });
});
