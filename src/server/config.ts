import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { makePrivateDir, PRIVATE_FILE_MODE } from './db/private-files.js';
import { detectMemoryLimit, MINIMUM_BYTES, splitMemory, type MemoryLimit, type MemoryProbe, type MemorySplit } from './memory/memory-budget.js';

/**
 * The only place that reads `process.env`. Everything else receives a `Config`.
 * A bad value throws a `ConfigError` whose message is one line naming the variable.
 */

export const SOCIAL_PROVIDERS = [
  'google', 'facebook', 'twitter', 'apple', 'github', 'gitlab', 'bitbucket', 'discord', 'azure',
  'keycloak', 'linkedin', 'notion', 'slack', 'spotify', 'twitch', 'workos', 'kakao',
] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
/**
 * Spec names Better Auth has no ready provider for (Keycloak needs an issuer URL; Bitbucket and
 * WorkOS have none): refused here, at start-up, rather than shown as a button that cannot work.
 */
export const UNSUPPORTED_SOCIAL_PROVIDERS: readonly SocialProvider[] = ['keycloak', 'bitbucket', 'workos'];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

const positiveInt = (fallback: number) =>
  z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').positive('must be positive').default(fallback);

const optionalPositiveInt = () =>
  z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').positive('must be positive').optional();

const url = (protocols: string[]) =>
  z
    .url({ message: 'must be a URL' })
    .refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
      message: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535, 'must be a port number').default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  TRUST_PROXY: optionalString,
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  AUTH_REQUIRE_EMAIL_VERIFICATION: booleanFlag(true),
  // Staff (the moderators) must have a second factor (an authenticator app or a passkey) to use the site.
  STAFF_REQUIRE_SECOND_FACTOR: booleanFlag(false),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  // An address, or `Name <address>`: without a name, mails are from the site's saved name (mail/mail-sender.ts).
  MAIL_FROM: z
    .string()
    .trim()
    .default('no-reply@localhost')
    .refine((value) => parseMailFrom(value) !== null, { message: 'must be an e-mail address, or a name and an address: Name <address>' })
    .transform((value) => parseMailFrom(value)!),
  // Messages this process sends a minute at most (subscriptions, and every other e-mail): the
  // durable queue holds the rest until their turn.
  MAIL_SEND_PER_MINUTE: positiveInt(600),
  // How often an idle worker of the durable queue looks for due jobs (a job queued by this process wakes it at once).
  QUEUE_POLL_MS: positiveInt(1000),
  // A failed job's first retry waits this long; each next one twice as long, up to an hour.
  QUEUE_RETRY_BASE_MS: positiveInt(10_000),
  // How long a worker holds a job before another process may take it (on Postgres, after a crash).
  QUEUE_LEASE_MS: positiveInt(10 * 60_000),
  // Jobs this process runs at once; 0: it runs none (a web-only process beside workers on one Postgres).
  QUEUE_CONCURRENCY: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(4),
  CONTACT_TO: z.email({ message: 'must be an e-mail address' }).optional(),
  AI_BASE_URL: url(['http:', 'https:']).optional(),
  AI_API_KEY: optionalString,
  AI_MODEL: z.string().trim().min(1).default('gpt-3.5-turbo'),
  AI_REQUESTS_PER_MINUTE: positiveInt(5),
  AI_REQUESTS_PER_DAY: positiveInt(100),
  AI_TIMEOUT_MS: positiveInt(30_000),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: url(['http:', 'https:']).optional(),
  IMAGE_BACKFILL_ON_START: booleanFlag(true),
  INLINE_IMAGE_GRACE_HOURS: positiveInt(24),
  // The interval's earlier name, from when the sweep covered editor uploads only; still honoured.
  INLINE_IMAGE_SWEEP_MINUTES: optionalPositiveInt(),
  STORAGE_SWEEP_MINUTES: optionalPositiveInt(),
  STORAGE_SWEEP_GRACE_MINUTES: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(60),
  SERVE_SOURCE_MAPS: booleanFlag(false),
  RESPONSE_CACHE_MB: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').optional(),
  MEMORY_LIMIT_MB: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').positive('must be positive').optional(),
  SESSION_CACHE_SECONDS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').max(300, 'must be 300 or less').default(30),
  SITE_NAME: z.string().trim().min(1).max(100).default('Blogging Site'),
  RATE_LIMIT_SCALE: z.coerce.number({ message: 'must be a number' }).positive('must be positive').max(1_000_000).default(1),
  REQUEST_TIMEOUT_MS: positiveInt(60_000),
  HEADERS_TIMEOUT_MS: positiveInt(10_000),
  KEEP_ALIVE_TIMEOUT_MS: positiveInt(5_000),
  IDLE_TIMEOUT_MS: positiveInt(60_000),
  MAX_CONNECTIONS: positiveInt(4_096),
  SITEMAP_PART_SIZE: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(10, 'must be at least 10')
    .max(50_000, 'must be at most 50000 (the sitemap protocol\'s limit)')
    .default(50_000),
  MODERATOR_EMAILS: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').map((email) => email.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.email({ message: 'must be e-mail addresses separated by commas' }))),
  // The site's owner (issue 44): that address becomes owner at sign-up, and at start-up if it already exists.
  OWNER_EMAIL: optionalString.pipe(z.email({ message: 'must be an e-mail address' }).optional()).transform((value) => value?.toLowerCase()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  METRICS_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(1).max(65535, 'must be a port number').optional(),
  // ActivityPub (docs/federation.md): off, the site has no federation routes, hooks or jobs.
  FEDERATION: booleanFlag(true),
  // Lets federation fetch and deliver to private and loopback addresses: for tests on 127.0.0.1 only.
  FEDERATION_ALLOW_PRIVATE_ADDRESS: booleanFlag(false),
  // Lets webhooks deliver to private and loopback addresses (docs/webhooks.md): for tests and private networks only.
  WEBHOOKS_ALLOW_PRIVATE_ADDRESS: booleanFlag(false),
  // Attempts of one webhook delivery before it is marked failed (retried with the queue's backoff).
  WEBHOOKS_MAX_ATTEMPTS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(20, 'must be at most 20').default(8),
  // Counting of page views and feed fetches (docs/analytics.md): off, nothing is counted.
  ANALYTICS: booleanFlag(true),
  // Days the raw rows of views are kept after their roll-up into daily figures.
  ANALYTICS_RAW_DAYS: positiveInt(30),
  // How often a process writes the views it has counted in memory (a kill -9 loses at most this window).
  ANALYTICS_FLUSH_MS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(100, 'must be at least 100').max(60_000, 'must be at most 60000').default(5_000),
});

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Base URL the browser loads objects from; defaults to `{endpoint}/{bucket}`. */
  publicUrl?: string;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Fastify's `trustProxy`: false, true, or a list of proxy addresses / CIDRs. */
  trustProxy: boolean | string[];
  dataDir: string;
  databaseUrl?: string;
  publicUrl: string;
  /** The site's name in page titles, feeds and Open Graph (`SITE_NAME`). */
  siteName: string;
  /**
   * Bytes the in-process cache of anonymous answers may hold: `RESPONSE_CACHE_MB`, else the
   * memory budget's share (`memory.responseCacheBytes`); 0 turns it off.
   */
  responseCacheBytes: number;
  /** The memory this process is given (`MEMORY_LIMIT_MB`, else its cgroup's or the machine's) and how it is shared. */
  memory: MemorySplit;
  /** How long a process may reuse a session it read (`SESSION_CACHE_SECONDS`); 0 reads it on every request. */
  sessionCacheMs: number;
  /** Most URLs in one sitemap file; more blogs make `/sitemap.xml` an index of parts (`SITEMAP_PART_SIZE`). */
  sitemapPartSize: number;
  authSecret: string;
  requireEmailVerification: boolean;
  /** Staff without a second factor are sent to enrol, and their API calls answer 403 (`STAFF_REQUIRE_SECOND_FACTOR`). */
  staffRequireSecondFactor: boolean;
  /** `from`: MAIL_FROM's address, and its display name if it names one (else the site's saved name is). */
  mail: { smtpUrl?: string; from: MailFrom; contactTo?: string; sendPerMinute: number };
  /** The durable queue (`src/server/queue/`): an idle worker's poll. */
  queue: { pollMs: number; retryBaseMs: number; leaseMs: number; concurrency: number };
  ai: {
    baseUrl?: string;
    apiKey?: string;
    model: string;
    requestsPerMinute: number;
    requestsPerDay: number;
    timeoutMs: number;
  };
  s3?: S3Config;
  /** Make the variants of images stored before they existed, in the background after start-up. */
  imageBackfillOnStart: boolean;
  /** Images uploaded from the editor that no saved blog names are removed (by the storage sweep) after this long. */
  inlineImages: { graceMs: number };
  /**
   * The sweep of the image store (`STORAGE_SWEEP_MINUTES`, `STORAGE_SWEEP_GRACE_MINUTES`): every
   * `intervalMs`, files no row names that are older than `graceMs` are removed.
   */
  storageSweep: { intervalMs: number; graceMs: number };
  /** Serve the build's `*.map` files to browsers (`SERVE_SOURCE_MAPS`); off, they stay on disk only. */
  serveSourceMaps: boolean;
  socialProviders: Partial<Record<SocialProvider, { clientId: string; clientSecret: string }>>;
  /** Multiplies every rate limit (`RATE_LIMIT_SCALE`, default 1): load tests from a few addresses raise it. */
  rateLimitScale: number;
  http: {
    /** Whole request (headers and body) must arrive within this (`REQUEST_TIMEOUT_MS`). */
    requestTimeoutMs: number;
    /** Headers must arrive within this (`HEADERS_TIMEOUT_MS`). */
    headersTimeoutMs: number;
    /** An idle keep-alive connection is closed after this (`KEEP_ALIVE_TIMEOUT_MS`). */
    keepAliveTimeoutMs: number;
    /** A connection with no traffic either way is closed after this (`IDLE_TIMEOUT_MS`). */
    idleTimeoutMs: number;
    /** Connections one process holds open at most (`MAX_CONNECTIONS`); more are closed at once. */
    maxConnections: number;
  };
  /** Addresses of the moderators (`MODERATOR_EMAILS`), lower-cased. */
  moderatorEmails: string[];
  /** The owner's address (`OWNER_EMAIL`), lower-cased: owner once proven (core/ownership.ts), and at start-up if its account is confirmed. */
  ownerEmail: string | undefined;
  logLevel: string;
  /**
   * Prometheus metrics: at `/metrics` on the site's port for a `Bearer` of `METRICS_TOKEN`, and/or
   * on a port of their own (`METRICS_PORT`, same host). Off (nothing loaded) when neither is set.
   */
  metrics?: { token?: string; port?: number };
  /**
   * ActivityPub (`FEDERATION`, on by default; docs/federation.md). `allowPrivateAddress`
   * (`FEDERATION_ALLOW_PRIVATE_ADDRESS`, off by default) lets it reach loopback and private
   * addresses, which only tests between two local sites need.
   */
  federation: { enabled: boolean; allowPrivateAddress: boolean };
  /**
   * Webhooks (docs/webhooks.md): targets must be public addresses unless `allowPrivateAddress`
   * (`WEBHOOKS_ALLOW_PRIVATE_ADDRESS`); a delivery is tried `maxAttempts` times (`WEBHOOKS_MAX_ATTEMPTS`).
   */
  webhooks: { allowPrivateAddress: boolean; maxAttempts: number };
  /**
   * Privacy-first analytics (`ANALYTICS`, on by default; docs/analytics.md): views counted in
   * memory and written every `flushMs` (`ANALYTICS_FLUSH_MS`), raw rows kept `rawDays`
   * (`ANALYTICS_RAW_DAYS`) after their daily roll-up.
   */
  analytics: { enabled: boolean; rawDays: number; flushMs: number };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, memoryProbe?: MemoryProbe): Config {
  // An empty variable means unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got ${JSON.stringify(env[name] ?? '')})`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = normalisePublicUrl(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);

  if (e.S3_BUCKET && (!e.S3_ACCESS_KEY_ID) !== (!e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  refuseUncheckableProxy(env, e);
  const memory = memorySplit(e.MEMORY_LIMIT_MB, e.RESPONSE_CACHE_MB, e.DATABASE_URL ? 'postgres' : 'pglite', memoryProbe);
  // What the operator set stays as they set it (and is what the start-up line shows); what is
  // already in force needs no restart.
  memory.processEnv = Object.fromEntries(Object.entries(memory.processEnv).map(([name, value]) => [name, env[name] ?? value]));
  memory.restartEnv = Object.fromEntries(Object.entries(memory.processEnv).filter(([name]) => env[name] === undefined));

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    siteName: e.SITE_NAME,
    responseCacheBytes: memory.responseCacheBytes,
    memory,
    sessionCacheMs: e.SESSION_CACHE_SECONDS * 1000,
    sitemapPartSize: e.SITEMAP_PART_SIZE,
    authSecret: e.AUTH_SECRET ?? readOrCreateSecret(dataDir),
    requireEmailVerification: e.AUTH_REQUIRE_EMAIL_VERIFICATION,
    staffRequireSecondFactor: e.STAFF_REQUIRE_SECOND_FACTOR,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, contactTo: e.CONTACT_TO, sendPerMinute: e.MAIL_SEND_PER_MINUTE },
    queue: { pollMs: e.QUEUE_POLL_MS, retryBaseMs: e.QUEUE_RETRY_BASE_MS, leaseMs: e.QUEUE_LEASE_MS, concurrency: e.QUEUE_CONCURRENCY },
    ai: {
      baseUrl: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      model: e.AI_MODEL,
      requestsPerMinute: e.AI_REQUESTS_PER_MINUTE,
      requestsPerDay: e.AI_REQUESTS_PER_DAY,
      timeoutMs: e.AI_TIMEOUT_MS,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          publicUrl: e.S3_PUBLIC_URL,
        }
      : undefined,
    imageBackfillOnStart: e.IMAGE_BACKFILL_ON_START,
    inlineImages: { graceMs: e.INLINE_IMAGE_GRACE_HOURS * 3_600_000 },
    storageSweep: {
      intervalMs: (e.STORAGE_SWEEP_MINUTES ?? e.INLINE_IMAGE_SWEEP_MINUTES ?? 60) * 60_000,
      graceMs: e.STORAGE_SWEEP_GRACE_MINUTES * 60_000,
    },
    serveSourceMaps: e.SERVE_SOURCE_MAPS,
    socialProviders: parseSocialProviders(env),
    rateLimitScale: e.RATE_LIMIT_SCALE,
    http: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      // Node refuses a headers timeout longer than the request timeout.
      headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: e.IDLE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
    },
    moderatorEmails: e.MODERATOR_EMAILS,
    ownerEmail: e.OWNER_EMAIL,
    logLevel: e.LOG_LEVEL,
    metrics: e.METRICS_TOKEN || e.METRICS_PORT ? { token: e.METRICS_TOKEN, port: e.METRICS_PORT } : undefined,
    federation: { enabled: e.FEDERATION, allowPrivateAddress: e.FEDERATION_ALLOW_PRIVATE_ADDRESS },
    webhooks: { allowPrivateAddress: e.WEBHOOKS_ALLOW_PRIVATE_ADDRESS, maxAttempts: e.WEBHOOKS_MAX_ATTEMPTS },
    analytics: { enabled: e.ANALYTICS, rawDays: e.ANALYTICS_RAW_DAYS, flushMs: e.ANALYTICS_FLUSH_MS },
  };
}

const MB = 1024 * 1024;

/**
 * The budget and its split. Below the smallest budget the server runs in, it stops here with one
 * line, rather than being killed by the kernel later without a word.
 */
function memorySplit(limitMb: number | undefined, responseCacheMb: number | undefined, database: 'pglite' | 'postgres', probe?: MemoryProbe): MemorySplit {
  const limit: MemoryLimit = limitMb !== undefined ? { bytes: limitMb * MB, source: 'MEMORY_LIMIT_MB' } : detectMemoryLimit(probe);
  const minimum = MINIMUM_BYTES[database];
  if (limit.bytes < minimum) {
    const what = database === 'pglite' ? 'with the embedded database (a Postgres server in DATABASE_URL needs less)' : 'on a Postgres server';
    throw new ConfigError(
      `Not enough memory: ${Math.round(limit.bytes / MB)} MB (${limit.source}) is below the ${minimum / MB} MB this server needs ${what}`,
    );
  }
  return splitMemory(limit, { database, responseCacheBytes: responseCacheMb === undefined ? undefined : responseCacheMb * MB });
}

/**
 * Node's `fetch` goes through HTTP(S)_PROXY only with NODE_USE_ENV_PROXY=1 (or --use-env-proxy).
 * A proxy connects where it is told: the public-address check of federation and webhooks
 * (`http/public-address.ts`) cannot see the address it reaches, so, rather than failing every
 * such request later (every fediverse route answered 500, issue 56), the server does not start.
 */
function refuseUncheckableProxy(env: NodeJS.ProcessEnv, e: z.infer<typeof envSchema>): void {
  const useEnvProxy = env.NODE_USE_ENV_PROXY === '1' || /(^|\s)--use-env-proxy(\s|=|$)/.test(env.NODE_OPTIONS ?? '') || process.execArgv.includes('--use-env-proxy');
  const proxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].find((name) => env[name]?.trim());
  const checked = (e.FEDERATION && !e.FEDERATION_ALLOW_PRIVATE_ADDRESS) || !e.WEBHOOKS_ALLOW_PRIVATE_ADDRESS;
  if (!useEnvProxy || !proxy || !checked) return;
  throw new ConfigError(
    `Invalid configuration: NODE_USE_ENV_PROXY sends outgoing requests through ${proxy}, where federation and webhooks cannot check that the address they reach is public; unset NODE_USE_ENV_PROXY (or ${proxy}), or set FEDERATION=false and WEBHOOKS_ALLOW_PRIVATE_ADDRESS=true to leave where requests go to the proxy`,
  );
}

/**
 * The URL as browsers write its origin (lower-case host, no default port, no trailing slash),
 * so `https://Example.com:443/` and `https://example.com` name the same site everywhere.
 */
export interface MailFrom {
  address: string;
  /** The display name MAIL_FROM sets; null when it gives an address only. */
  name: string | null;
}

/** `a@b`, `Name <a@b>` or `"Name, Inc." <a@b>`; null for anything else. */
export function parseMailFrom(value: string): MailFrom | null {
  const named = /^(.*?)\s*<([^<>\s]+)>$/.exec(value);
  const address = named ? named[2]! : value;
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(address)) return null;
  const name = named?.[1]!.replace(/^"(.*)"$/, '$1').trim();
  return { address, name: name || null };
}

function normalisePublicUrl(value: string): string {
  const parsed = new URL(value);
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}

function parseSocialProviders(env: NodeJS.ProcessEnv): Config['socialProviders'] {
  const providers: Config['socialProviders'] = {};
  for (const provider of SOCIAL_PROVIDERS) {
    const prefix = provider.toUpperCase();
    const clientId = env[`${prefix}_CLIENT_ID`]?.trim();
    const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim();
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      throw new ConfigError(`Invalid configuration: ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
    }
    if (UNSUPPORTED_SOCIAL_PROVIDERS.includes(provider)) {
      throw new ConfigError(`Invalid configuration: ${prefix}_CLIENT_ID is set, but sign-in with ${provider} is not supported; unset ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET`);
    }
    providers[provider] = { clientId, clientSecret };
  }
  return providers;
}

/** A secret generated on first start and kept beside the data, readable by the owner only. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  makePrivateDir(dataDir);
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
  return secret;
}
