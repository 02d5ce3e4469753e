import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIConnectionError, AuthenticationError, RateLimitError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { BLOG_PROMPT, blogRequestBody, createBlogGenerator, loadAiSdk, toAiError, type BlogStream } from './ai-provider.js';
import { sanitizeBlogHtml } from './sanitize-blog-html.js';
import { expectSpecBlogRequest } from '../testing/ai-requests.js';
import {
  FAKE_BLOG, splitIntoChunks, startFakeOpenAiServer, type FakeOpenAiServer,
} from '../testing/fake-openai-server.js';

const KEY = 'sk-test-0123456789abcdef';
let fake: FakeOpenAiServer;

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 5 });
});

function aiConfig(overrides: Partial<Config['ai']> = {}): Config['ai'] {
  return {
    baseUrl: fake.url,
    apiKey: KEY,
    model: 'gpt-3.5-turbo',
    requestsPerMinute: 5,
    requestsPerDay: 100,
    timeoutMs: 5_000,
    ...overrides,
  };
}

const generate = (overrides: Partial<Config['ai']> = {}, signal = new AbortController().signal) =>
  createBlogGenerator(aiConfig(overrides)).generate(signal);

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const received: string[] = [];
  for await (const chunk of chunks) received.push(chunk);
  return received;
}

/** The AppError a promise rejects with (fails the test if it resolves or rejects otherwise). */
async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure, got success');
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Reads `stream` until it fails; returns what arrived and the AppError. */
async function streamFailure(stream: BlogStream): Promise<{ received: string[]; error: AppError }> {
  const received: string[] = [];
  const error = await appErrorOf(
    (async () => {
      for await (const chunk of stream.chunks) received.push(chunk);
    })(),
  );
  return { received, error };
}

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the request sent to the provider', () => {
  it('carries exactly the spec fields, the configured model and the key', async () => {
    const stream = await generate({ model: 'my-configured-model' });
    await collect(stream.chunks);

    expect(fake.requests).toHaveLength(1);
    expectSpecBlogRequest(fake.requests[0], KEY, 'my-configured-model');
  });

  it('asks, in one user message, for a random blog as HTML with the title in h1 and content in p', () => {
    expect(BLOG_PROMPT).toMatch(/assistant for a blogging platform/i);
    expect(BLOG_PROMPT).toMatch(/random blog/i);
    expect(BLOG_PROMPT).toMatch(/HTML/);
    expect(BLOG_PROMPT).toMatch(/title in an <h1>/);
    expect(BLOG_PROMPT).toMatch(/content in <p>/);
    expect(blogRequestBody('m').messages).toEqual([{ role: 'user', content: BLOG_PROMPT }]);
  });

  it('never shows the key in its label', () => {
    const { label } = createBlogGenerator(aiConfig());
    expect(label).toContain('gpt-3.5-turbo');
    expect(label).toContain('127.0.0.1');
    expect(label).not.toContain(KEY);
  });
});

describe('a streamed reply', () => {
  it('arrives in chunks, named after the model that really answered', async () => {
    const text = '<h1>Streams</h1><p>One piece at a time, as the model writes them.</p>';
    fake.setBehaviour({ kind: 'stream', text, chunks: 6, model: 'gpt-3.5-turbo-0125' });

    const stream = await generate({ model: 'gpt-3.5-turbo' });
    expect(stream.model).toBe('gpt-3.5-turbo-0125');
    const received = await collect(stream.chunks);
    expect(received).toEqual(splitIntoChunks(text, 6));
    expect(received).toHaveLength(6);
    expect(received.join('')).toBe(text);
  });

  it('hands over each chunk as soon as it arrives, not at the end', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 4, delayMs: 80 });
    const stream = await generate();
    const arrivals: number[] = [];
    for await (const chunk of stream.chunks) {
      expect(chunk).not.toBe('');
      arrivals.push(Date.now());
    }
    expect(arrivals).toHaveLength(4);
    expect(arrivals[3]! - arrivals[0]!).toBeGreaterThanOrEqual(200);
  });
});

describe('failures', () => {
  it('401: says the provider rejected the key, and never quotes it', async () => {
    fake.setBehaviour({ kind: 'fail', status: 401, message: `Incorrect API key provided: ${KEY}.` });
    const error = await appErrorOf(generate());
    expect(error.statusCode).toBe(502);
    expect(error.code).toBe('AI_KEY_REJECTED');
    expect(error.message).toMatch(/rejected this site's API key/);
    expect(error.message).not.toContain(KEY);
    expect(String(error.cause ?? '')).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('429: says the provider is busy', async () => {
    fake.setBehaviour({ kind: 'fail', status: 429 });
    const error = await appErrorOf(generate());
    expect(error.statusCode).toBe(429);
    expect(error.code).toBe('AI_RATE_LIMITED');
    expect(error.message).toMatch(/AI provider is busy/);
  });

  it('500: the provider is unavailable (and is not retried)', async () => {
    fake.setBehaviour({ kind: 'fail', status: 500 });
    const error = await appErrorOf(generate());
    expect(error.statusCode).toBe(502);
    expect(error.code).toBe('AI_UNAVAILABLE');
    expect(error.message).toMatch(/AI provider had a problem/);
    expect(fake.requests).toHaveLength(1);
  });

  it('provider down (connection refused): the provider could not be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const error = await appErrorOf(generate({ baseUrl: `http://127.0.0.1:${port}/v1` }));
    expect(error.statusCode).toBe(502);
    expect(error.code).toBe('AI_UNAVAILABLE');
    expect(error.message).toMatch(/could not be reached/);
  });

  it('no answer within the timeout: a timeout, and the request is abandoned', async () => {
    fake.setBehaviour({ kind: 'hang' });
    const start = Date.now();
    const error = await appErrorOf(generate({ timeoutMs: 300 }));
    expect(Date.now() - start).toBeGreaterThanOrEqual(280);
    expect(Date.now() - start).toBeLessThan(2_000);
    expect(error.statusCode).toBe(504);
    expect(error.code).toBe('AI_TIMEOUT');
    expect(error.message).toMatch(/did not answer within 0.3 seconds/);
    await waitFor(() => fake.requests[0]?.aborted === true);
  });

  it('a stream that stalls after it started: a timeout from the chunks', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 3, delayMs: 600 });
    const stream = await generate({ timeoutMs: 300 });
    const { received, error } = await streamFailure(stream);
    expect(received).toEqual([]);
    expect(error.statusCode).toBe(504);
    expect(error.code).toBe('AI_TIMEOUT');
  });

  it('a slow stream that keeps sending is not a timeout: the limit is per silence', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 5, delayMs: 100 });
    const stream = await generate({ timeoutMs: 300 });
    expect((await collect(stream.chunks)).join('')).toBe(FAKE_BLOG);
  });

  it('a connection cut mid-stream: the chunks so far, then a cut-off error', async () => {
    fake.setBehaviour({ kind: 'cut', text: FAKE_BLOG, chunks: 5, sendChunks: 2, end: 'destroy' });
    const stream = await generate();
    const { received, error } = await streamFailure(stream);
    expect(received).toEqual(splitIntoChunks(FAKE_BLOG, 5).slice(0, 2));
    expect(error.statusCode).toBe(502);
    expect(error.code).toBe('AI_UNAVAILABLE');
    expect(error.message).toMatch(/cut off/);
  });

  it('a stream that ends cleanly but without finish_reason or [DONE]: cut off, not complete', async () => {
    fake.setBehaviour({ kind: 'cut', text: FAKE_BLOG, chunks: 5, sendChunks: 3, end: 'close' });
    const stream = await generate();
    const { received, error } = await streamFailure(stream);
    expect(received).toHaveLength(3);
    expect(error.statusCode).toBe(502);
    expect(error.message).toMatch(/cut off/);
  });

  it('a stream cut before its first event: generate itself fails', async () => {
    for (const end of ['close', 'destroy'] as const) {
      fake.setBehaviour({ kind: 'cut', text: FAKE_BLOG, sendChunks: 0, end, roleChunk: false });
      const error = await appErrorOf(generate());
      expect(error.statusCode).toBe(502);
      expect(error.message).toMatch(/cut off/);
    }
  });

  it('a malformed first event: generate fails with an unreadable-reply error', async () => {
    fake.setBehaviour({ kind: 'malformed', roleChunk: false });
    const error = await appErrorOf(generate());
    expect(error.statusCode).toBe(502);
    expect(error.code).toBe('AI_UNAVAILABLE');
    expect(error.message).toMatch(/could not be read/);
  });

  it('a malformed event after the role chunk: the error comes from the chunks', async () => {
    fake.setBehaviour({ kind: 'malformed' });
    const stream = await generate();
    const { received, error } = await streamFailure(stream);
    expect(received).toEqual([]);
    expect(error.statusCode).toBe(502);
    expect(error.message).toMatch(/could not be read/);
  });

  it('a malformed line mid-stream: the chunks so far, then an unreadable-reply error', async () => {
    fake.setBehaviour({ kind: 'malformed', text: FAKE_BLOG, chunks: 5, sendChunks: 2 });
    const stream = await generate();
    const { received, error } = await streamFailure(stream);
    expect(received).toEqual(splitIntoChunks(FAKE_BLOG, 5).slice(0, 2));
    expect(error.message).toMatch(/could not be read/);
  });
});

describe('aborting', () => {
  it('before the answer: generate fails at once and the HTTP request is closed', async () => {
    fake.setBehaviour({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const start = Date.now();
    const error = await appErrorOf(generate({}, controller.signal));
    expect(Date.now() - start).toBeLessThan(1_000);
    expect(error.code).toBe('AI_ABORTED');
    await waitFor(() => fake.requests[0]?.aborted === true);
  });

  it('mid-stream: the chunks end quietly and the HTTP request is closed', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 20, delayMs: 30 });
    const controller = new AbortController();
    const stream = await generate({}, controller.signal);
    const received: string[] = [];
    for await (const chunk of stream.chunks) {
      received.push(chunk);
      if (received.length === 2) controller.abort();
    }
    expect(received.length).toBeLessThan(5);
    await waitFor(() => fake.requests[0]?.aborted === true);
  });

  it('a consumer that stops reading closes the HTTP request too', async () => {
    fake.setBehaviour({ kind: 'stream', text: FAKE_BLOG, chunks: 20, delayMs: 30 });
    const stream = await generate();
    for await (const chunk of stream.chunks) {
      expect(chunk).not.toBe('');
      break;
    }
    await waitFor(() => fake.requests[0]?.aborted === true);
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await appErrorOf(generate({}, AbortSignal.abort()));
    expect(error.code).toBe('AI_ABORTED');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('without an API key', () => {
  it('uses the offline generator and calls no provider', async () => {
    const generator = createBlogGenerator(aiConfig({ apiKey: undefined }));
    expect(generator.label).toMatch(/offline generator/);
    const stream = await generator.generate(new AbortController().signal);
    expect(stream.model).toBe('offline generator');
    const html = (await collect(stream.chunks)).join('');
    expect(html).toMatch(/^<h1>[^<]+<\/h1>(\n<p>[^<]+<\/p>){3,5}$/);
    expect(sanitizeBlogHtml(html)).toBe(html);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('toAiError', () => {
  // The provider loads the SDK on its first request; its errors exist only from then on.
  beforeAll(() => loadAiSdk());
  it('keeps AppErrors and maps SDK errors by kind', () => {
    const own = new AppError(418, 'TEAPOT', 'short and stout');
    expect(toAiError(own)).toBe(own);
    expect(toAiError(new RateLimitError(429, undefined, 'slow down', new Headers())).code).toBe('AI_RATE_LIMITED');
    expect(toAiError(new AuthenticationError(401, undefined, 'bad key', new Headers())).code).toBe('AI_KEY_REJECTED');
    expect(toAiError(new APIConnectionError({ message: 'refused' })).statusCode).toBe(502);
    expect(toAiError(new SyntaxError('Unexpected token')).message).toMatch(/could not be read/);
    expect(toAiError(new Error('anything else')).statusCode).toBe(502);
  });
});
