import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { AppError, conflict } from '../errors.js';
import type { RateLimiter } from '../rate-limit/rate-limit.js';
import { dropLease, takeLease } from './ai-lease.repository.js';
import { createBlogGenerator, type BlogGenerator } from './ai-provider.js';
import { OFFLINE_MODEL_LABEL } from './offline-generator.js';
import { sanitizeBlogHtml } from './sanitize-blog-html.js';

/**
 * The rules around generating a blog for a signed-in user: per-user limits on cost, one
 * generation at a time per user (across every app process), and sanitised output only.
 */

export interface AiServiceDeps {
  db: Kysely<Database>;
  limiter: RateLimiter;
  ai: Config['ai'];
  /** Replaces the generator built from `ai` (tests). */
  generator?: BlogGenerator;
  /** How long one generation may run in all; by default `defaultMaxRunMs(ai)`. */
  maxRunMs?: number;
}

export interface BlogGeneration {
  /** The model that really answered, or 'offline generator'. */
  model: string;
  /**
   * The sanitised blog so far, each time it grows; the last value is the whole blog. Throws an
   * `AppError` when the reply fails or holds no blog; ends quietly if the caller aborted.
   */
  documents(): AsyncGenerator<string>;
  /** Stops the provider if it is still writing and frees the user for the next request. */
  close(): Promise<void>;
}

export interface AiService {
  /** Who writes the blog, as far as the site knows before an answer: the configured model. */
  label: string;
  /** Checks the user's limits, then resolves once the provider's first piece has arrived. */
  start(userId: string, signal: AbortSignal): Promise<BlogGeneration>;
}

export const ALREADY_RUNNING_MESSAGE =
  'A blog is already being generated for you. Please wait until it is finished before asking for another.';

/**
 * The timeout only bounds silences, so a provider that trickles could hold a user's lease
 * forever; a whole generation gets this long. 256 tokens take well under a minute.
 */
export function defaultMaxRunMs(ai: Config['ai']): number {
  return Math.max(5 * 60_000, 4 * ai.timeoutMs);
}

/** The lease outlives the longest run, so it never expires under a generation still running. */
const LEASE_MARGIN_MS = 5_000;

export function createAiService({
  db, limiter, ai, generator = createBlogGenerator(ai), maxRunMs = defaultMaxRunMs(ai),
}: AiServiceDeps): AiService {
  const leaseMs = maxRunMs + LEASE_MARGIN_MS;
  return {
    label: ai.apiKey ? ai.model : OFFLINE_MODEL_LABEL,
    async start(userId, signal) {
      const lease = await acquireLease(db, userId, leaseMs);
      if (!lease) throw conflict(ALREADY_RUNNING_MESSAGE, 'AI_ALREADY_RUNNING');
      const run = new GenerationRun(lease, signal, maxRunMs);
      try {
        await enforceLimits(limiter, userId, ai);
        const stream = await generator.generate(run.signal);
        return run.attach(stream.model, stream.chunks);
      } catch (err) {
        // The lease expires by itself if the database cannot release it; the cause matters more.
        await run.close().catch(() => undefined);
        throw run.explain(err);
      }
    },
  };
}

async function enforceLimits(limiter: RateLimiter, userId: string, ai: Config['ai']): Promise<void> {
  const perMinute = ai.requestsPerMinute;
  await limiter.enforce(
    `ai:min:${userId}`,
    { max: perMinute, windowSeconds: 60 },
    `You can generate ${perMinute} ${perMinute === 1 ? 'blog' : 'blogs'} a minute. Please wait a minute and try again.`,
  );
  const perDay = ai.requestsPerDay;
  await limiter.enforce(
    `ai:day:${userId}`,
    { max: perDay, windowSeconds: 24 * 60 * 60 },
    `You have reached today's limit of ${perDay} generated ${perDay === 1 ? 'blog' : 'blogs'}. Please try again tomorrow.`,
  );
}

interface Lease {
  db: Kysely<Database>;
  key: string;
  /** Stored in the row's `count`, so only the holder releases it (and not a later holder's). */
  token: number;
}

async function acquireLease(db: Kysely<Database>, userId: string, leaseMs: number): Promise<Lease | null> {
  const key = `ai:running:${userId}`;
  const token = randomInt(1, 2 ** 31 - 1);
  return (await takeLease(db, key, token, leaseMs)) ? { db, key, token } : null;
}

async function releaseLease({ db, key, token }: Lease): Promise<void> {
  await dropLease(db, key, token);
}

const aiTooLong = () =>
  new AppError(504, 'AI_TIMEOUT', 'The AI provider took too long to write the blog. Please try again.');

const aiEmpty = () =>
  new AppError(502, 'AI_EMPTY', 'The AI provider answered, but its reply held no blog. Please try again.');

class GenerationRun implements BlogGeneration {
  private readonly controller = new AbortController();
  private readonly deadline: NodeJS.Timeout;
  private deadlinePassed = false;
  private released: Promise<void> | undefined;
  model = '';
  private chunks: AsyncIterable<string> = (async function* () {})();

  constructor(
    private readonly lease: Lease,
    private readonly caller: AbortSignal,
    maxRunMs: number,
  ) {
    if (caller.aborted) this.controller.abort();
    else caller.addEventListener('abort', this.onCallerAbort, { once: true });
    this.deadline = setTimeout(() => {
      this.deadlinePassed = true;
      this.controller.abort();
    }, maxRunMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  attach(model: string, chunks: AsyncIterable<string>): this {
    this.model = model;
    this.chunks = chunks;
    return this;
  }

  async *documents(): AsyncGenerator<string> {
    let text = '';
    let last = '';
    try {
      for await (const chunk of this.chunks) {
        text += chunk;
        const html = sanitizeBlogHtml(settledPart(text));
        if (html !== last) {
          last = html;
          yield html;
        }
      }
    } catch (err) {
      throw this.explain(err);
    }
    if (this.caller.aborted) return;
    if (this.deadlinePassed) throw aiTooLong();
    const html = sanitizeBlogHtml(text);
    if (html === '') throw aiEmpty();
    if (html !== last) yield html;
  }

  /** The error to report for `err`, knowing why this run's signal fired. */
  explain(err: unknown): unknown {
    if (this.deadlinePassed && !this.caller.aborted) return aiTooLong();
    return err;
  }

  close(): Promise<void> {
    this.released ??= (async () => {
      clearTimeout(this.deadline);
      this.caller.removeEventListener('abort', this.onCallerAbort);
      this.controller.abort();
      await releaseLease(this.lease);
    })();
    return this.released;
  }

  private readonly onCallerAbort = () => this.controller.abort();
}

/**
 * The text without a tag, entity or code fence still being written at its end, so a reader
 * never sees `<scr` or `&am` flash up before the rest arrives.
 */
export function settledPart(text: string): string {
  return text.replace(/<[^>]*$/, '').replace(/&[#\w]*$/, '').replace(/(^|\n)[ \t]*`{1,3}[\w-]*$/, '$1');
}
