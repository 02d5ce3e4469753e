import type OpenAI from 'openai';
import type { APIError } from 'openai';
import type * as OpenAiSdk from 'openai';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { OFFLINE_MODEL_LABEL, streamOfflineBlog } from './offline-generator.js';

/**
 * Streams a random blog from any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama,
 * vLLM, ...), or from the offline generator when no key is configured. Every failure becomes an
 * `AppError` with a message fit for the page; the key never appears in one.
 */

export const BLOG_PROMPT =
  'You are an assistant for a blogging platform. Generate a random blog with a title and content, ' +
  'written as HTML: put the title in an <h1> tag and the content in <p> tags. ' +
  'Reply with the HTML only.';

export function blogRequestBody(model: string) {
  return {
    model,
    messages: [{ role: 'user' as const, content: BLOG_PROMPT }],
    temperature: 1,
    max_tokens: 256,
    top_p: 1,
    frequency_penalty: 0,
    presence_penalty: 0,
    stream: true as const,
  } satisfies OpenAI.ChatCompletionCreateParamsStreaming;
}

export interface BlogStream {
  /** The model that really answered (from the reply, not the request), or 'offline generator'. */
  model: string;
  /**
   * The blog's HTML, unsanitised, piece by piece. Iterating it throws an `AppError` when the
   * reply breaks off, is unreadable or stalls; it ends quietly when the caller's signal aborts.
   */
  chunks: AsyncIterable<string>;
}

export interface BlogGenerator {
  /** For logs: which model and host answer, never the key. */
  label: string;
  /** Resolves once the first piece of the reply arrived; rejects with an `AppError`. */
  generate(signal: AbortSignal): Promise<BlogStream>;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

type Sdk = typeof OpenAiSdk;
let sdk: Sdk | undefined;

/**
 * The SDK loads on the first generation (about 13 MB that a site without an AI key never needs).
 * Its errors can only exist once it is loaded, so `toAiError` recognises them from then on.
 */
export async function loadAiSdk(): Promise<Sdk> {
  sdk ??= await import('openai');
  return sdk;
}

export function createBlogGenerator(ai: Config['ai']): BlogGenerator {
  if (!ai.apiKey) {
    return {
      label: `${OFFLINE_MODEL_LABEL} (no AI_API_KEY set)`,
      generate: async (signal) => ({ model: OFFLINE_MODEL_LABEL, chunks: streamOfflineBlog(signal) }),
    };
  }
  const baseURL = ai.baseUrl ?? DEFAULT_BASE_URL;
  const newClient = ({ default: OpenAI }: Sdk) => new OpenAI({
    apiKey: ai.apiKey,
    baseURL,
    // The page is waiting; a retry would double the wait and the cost. The user can press again.
    maxRetries: 0,
    // Covers the wait for the response headers; `RequestGuard` covers the stream after them.
    timeout: ai.timeoutMs,
    // Explicit nulls keep the SDK from picking up OPENAI_* variables: config.ts is the only source.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    // Failures are reported through AppError; the SDK would also print them to the console.
    logLevel: 'off',
  });
  let client: Promise<OpenAI> | undefined;
  return {
    label: `${ai.model} at ${new URL(baseURL).host}`,
    generate: async (signal) => streamFromProvider(await (client ??= loadAiSdk().then(newClient)), ai, signal),
  };
}

type ChunkIterator = AsyncIterator<OpenAI.ChatCompletionChunk>;

async function streamFromProvider(client: OpenAI, ai: Config['ai'], signal: AbortSignal): Promise<BlogStream> {
  const guard = new RequestGuard(ai.timeoutMs, signal);
  let iterator: ChunkIterator;
  let first: IteratorResult<OpenAI.ChatCompletionChunk>;
  try {
    const stream = await client.chat.completions.create(blogRequestBody(ai.model), { signal: guard.signal });
    iterator = stream[Symbol.asyncIterator]();
    first = await iterator.next();
  } catch (err) {
    guard.dispose();
    throw guard.failure(err);
  }
  if (first.done) {
    guard.dispose();
    // The SDK ends a stream quietly when it is aborted, so an early end needs explaining.
    throw guard.failure(undefined);
  }
  return { model: first.value.model || ai.model, chunks: deltas(first.value, iterator, guard) };
}

async function* deltas(
  first: OpenAI.ChatCompletionChunk,
  rest: ChunkIterator,
  guard: RequestGuard,
): AsyncGenerator<string> {
  let finished = false;
  let ended = false;
  try {
    let result: IteratorResult<OpenAI.ChatCompletionChunk> = { value: first };
    for (; !result.done; result = await rest.next()) {
      guard.touch();
      const choices = result.value.choices ?? [];
      if (choices.some((choice) => choice.finish_reason)) finished = true;
      const text = choices[0]?.delta?.content;
      if (text) yield text;
    }
    ended = true;
  } catch (err) {
    ended = true;
    // Once the model said it finished, a connection that then drops has lost nothing.
    if (finished || guard.callerAborted) return;
    throw guard.failure(err);
  } finally {
    // The consumer stopped early: let the provider stop too.
    if (!ended) guard.abort();
    guard.dispose();
  }
  // The SDK treats a body that simply ends (no finish_reason, no [DONE]) as a complete stream.
  if (!finished && !guard.callerAborted) throw guard.failure(undefined);
}

/**
 * One request's abort signal: fires when the caller aborts, or when the provider has sent
 * nothing for `timeoutMs` (the SDK's own timeout stops counting once the headers arrive).
 */
class RequestGuard {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  timedOut = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly caller: AbortSignal,
  ) {
    if (caller.aborted) this.controller.abort();
    else caller.addEventListener('abort', this.onCallerAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get callerAborted(): boolean {
    return this.caller.aborted;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }

  abort(): void {
    this.controller.abort();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller.removeEventListener('abort', this.onCallerAbort);
  }

  /** The AppError for `err`, or for a stream that ended early when `err` is undefined. */
  failure(err: unknown): AppError {
    if (this.callerAborted) return aiAborted();
    if (this.timedOut || (sdk && err instanceof sdk.APIConnectionTimeoutError)) return aiTimeout(this.timeoutMs);
    if (err === undefined) return aiCutOff();
    return toAiError(err);
  }

  private readonly onCallerAbort = () => this.controller.abort();
}

/** A 502 whose cause stays for the server's logs; only the message reaches the browser. */
function unavailable(message: string, cause?: unknown): AppError {
  const error = new AppError(502, 'AI_UNAVAILABLE', message);
  if (cause !== undefined) error.cause = cause;
  return error;
}

const aiAborted = () => new AppError(499, 'AI_ABORTED', 'The AI request was cancelled.');

const aiTimeout = (timeoutMs?: number) =>
  new AppError(
    504,
    'AI_TIMEOUT',
    timeoutMs === undefined
      ? 'The AI provider did not answer in time. Please try again.'
      : `The AI provider did not answer within ${formatSeconds(timeoutMs)}. Please try again.`,
  );

const aiCutOff = (cause?: unknown) =>
  unavailable("The AI provider's reply was cut off before it finished. Please try again.", cause);

function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/** Maps any failure of a provider request to the AppError the page shows. */
export function toAiError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if ((sdk && err instanceof sdk.APIUserAbortError) || (err instanceof Error && err.name === 'AbortError')) return aiAborted();
  if (sdk && err instanceof sdk.APIConnectionTimeoutError) return aiTimeout();
  if (sdk && err instanceof sdk.APIConnectionError) {
    return unavailable('The AI provider could not be reached. Please try again later.', err);
  }
  if (sdk && err instanceof sdk.APIError) return fromStatus(err);
  if (err instanceof SyntaxError) {
    return unavailable('The AI provider sent a reply that could not be read. Please try again.', err);
  }
  // undici's error for a connection that closed in the middle of the body.
  if (err instanceof TypeError && err.message === 'terminated') return aiCutOff(err);
  return unavailable('The AI provider failed to write a blog. Please try again later.', err);
}

const CHECK_SETTINGS = 'The site administrator needs to check the AI settings.';

function fromStatus(err: APIError): AppError {
  const status = err.status;
  if (status === 401 || status === 403) {
    // No cause kept: the provider's message may quote part of the key.
    return new AppError(
      502,
      'AI_KEY_REJECTED',
      `The AI provider rejected this site's API key, so no blog can be generated right now. ${CHECK_SETTINGS}`,
    );
  }
  if (status === 429) {
    const error = new AppError(
      429,
      'AI_RATE_LIMITED',
      'The AI provider is busy right now. Please wait a moment and try again.',
    );
    error.cause = err;
    return error;
  }
  if (status === 404) return unavailable(`The AI provider does not offer the configured model. ${CHECK_SETTINGS}`, err);
  if (status !== undefined && status >= 500) {
    return unavailable('The AI provider had a problem and could not write a blog. Please try again later.', err);
  }
  // Another 4xx, or an error event inside the stream (which carries no status).
  return unavailable('The AI provider refused to write a blog. Please try again later.', err);
}
