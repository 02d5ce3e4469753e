import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { createAuth, type AuthAppDeps } from './auth/auth.js';
import { staffSecondFactorRule } from './auth/staff-second-factor.js';
import { createSessionMemory, createSessions } from './auth/session.js';
import { registerSessionMemoryHooks } from './auth/session-memory.plugin.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { registerBadCharacterGuard } from './http/bad-characters.js';
import { registerErrorHandler } from './http/error-handler.js';
import { loggerOptions, registerRequestId } from './http/logging.js';
import { registerMetrics } from './metrics/metrics.plugin.js';
import { registerIdleReclaim } from './memory/idle-reclaim.js';
import { registerSameOriginCheck } from './http/same-origin.js';
import { helmetHeaders, registerSecurityHeaders } from './http/security-headers.js';
import { registerWebApp } from './http/web-app.js';
import { createViewerVotes } from './core/viewer-votes.js';
import { createPublicData, createPublicDataStore, noPublicData } from './cache/public-data.js';
import { createCacheInvalidation, type CacheInvalidation, type ExtraChannels } from './cache/cache-invalidation.js';
import { neverCached } from './cache/route-caching.js';
import { routes, visitorContext } from './core/visitor-contexts.js';
import { ResponseCache } from './cache/response-cache.js';
import { registerResponseCache } from './cache/response-cache.plugin.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { queuedMailer, registerMailJob, sendRate } from './mail/mail-queue.js';
import { fromTheSite } from './mail/mail-sender.js';
import { outboxRoutes } from './mail/outbox.routes.js';
import { createJobQueue, type JobQueue } from './queue/job-queue.js';
import { createBlogEvents } from './core/blog-events.js';
import { invalidateOnBlogEvents } from './core/blog-event-invalidation.js';
import type { ContentChanges } from './cache/content-changes.js';
import { registerQueueCleanupJob } from './core/queue-cleanup.job.js';
import { createRateLimiter } from './rate-limit/rate-limit.js';
import { builtPageRenderer, vitePageRenderer } from './pages/page-renderer.js';
import { createPageHandler } from './pages/pages.js';
import { localUploadsDir } from './storage/local-storage.js';
import { createImageStorage, type ImageStorage } from './storage/storage.js';
import { createJobRunner, type JobRunner } from './jobs/job-runner.js';
import { registerImageVariantsJob } from './images/image-variants.job.js';
import { createSiteSettings, settingsChangedBy, type SiteSettingsAccess } from './core/site-settings.js';
import { siteInfoOf } from './settings/site-info.js';
import { trustedProxies } from './http/trusted-proxies.js';
import { applyOwnerEmail, firstAccountAwaited } from './core/ownership.js';
import { performAction } from './moderation/moderation.service.js';
import type { AnalyticsBuffer } from './analytics/analytics-buffer.js';
import { defineFeature, VISITOR_CONTEXTS, type ContextName, type Feature, type FeatureHost, type FeatureRoute } from './feature.js';
import type { SuspendAccount } from './core/suspend-account.js';
import { aiFeature } from './ai/ai.feature.js';
import { analyticsFeature } from './analytics/analytics.feature.js';
import { auditFeature } from './audit/audit.feature.js';
import { authFeature } from './auth/auth.feature.js';
import { blogsFeature } from './blogs/blogs.feature.js';
import { commentsFeature } from './comments/comments.feature.js';
import { contactFeature } from './contact/contact.feature.js';
import { federationFeature } from './federation/federation.feature.js';
import { feedsFeature } from './feeds/feeds.feature.js';
import { ghostApiFeature } from './ghost-api/ghost-api.feature.js';
import { blogWritingForApps } from './blogs/app-blog-writing.js';
import { indieauthFeature } from './indieauth/indieauth.feature.js';
import { inlineImagesFeature } from './inline-images/inline-images.feature.js';
import { moderationFeature } from './moderation/moderation.feature.js';
import { peopleFeature } from './people/people.feature.js';
import { portabilityFeature } from './portability/portability.feature.js';
import { searchFeature } from './search/search.feature.js';
import { settingsFeature } from './settings/settings.feature.js';
import { sitePagesFeature } from './site-pages/site-pages.feature.js';
import { storageSweepFeature } from './storage-sweep/storage-sweep.feature.js';
import { subscriptionsFeature } from './subscriptions/subscriptions.feature.js';
import { tagsFeature } from './tags/tags.feature.js';
import { votesFeature } from './votes/votes.feature.js';
import { webhooksFeature } from './webhooks/webhooks.feature.js';
import { healthRoutes } from './health/health.routes.js';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  mailer?: Mailer;
  storage?: ImageStorage;
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web app; defaults to `dist/web` of this package. */
  webRoot?: string;
  /**
   * Where server-rendered pages come from: `vite` renders from source (development, and the
   * server-render tests), `built` from the build beside `webRoot` (no build: pages answer the
   * JSON 404, as in API tests). Default: `vite` in development, else `built`.
   */
  pages?: 'vite' | 'built';
  /** The clock that says which queued jobs are due (tests of scheduled publishing move it). */
  now?: () => Date;
  /** How a new password is hashed (`AuthDeps.hashPassword`): scrypt unless a test app brings its own. */
  hashPassword?: (password: string) => Promise<string>;
}

/** The built web app sits beside the built server (`dist/web` next to `dist/server`). */
const DEFAULT_WEB_ROOT = import.meta.url.endsWith('.ts')
  ? fileURLToPath(new URL('../../dist/web', import.meta.url))
  : fileURLToPath(new URL('../web', import.meta.url));

/**
 * The app's rooms, in the one order `buildApp` calls them in, part by part (`feature.ts`): the
 * hooks of each group, then each context's routes (a context lists its routes in this order, which
 * is the order of `/api/openapi.json`), then the blog-event consumers, then the jobs. Each feature
 * folder exports its own object; the few entries written here are the infrastructure's own routes
 * and jobs and the API's description, which is last among the public routes.
 */
export const FEATURES: readonly Feature<AuthAppDeps>[] = [
  defineFeature({ name: 'health', routes: ({ deps }) => [{ visitors: 'anyone', plugin: routes(healthRoutes, deps) }] }),
  contactFeature,
  authFeature,
  settingsFeature,
  peopleFeature,
  portabilityFeature,
  blogsFeature,
  defineFeature({
    name: 'images',
    jobs: ({ jobs, deps }) => registerImageVariantsJob(jobs, { db: deps.db, storage: deps.storage, contentChanges: deps.contentChanges }, { onStart: deps.config.imageBackfillOnStart }),
  }),
  defineFeature({ name: 'queue', jobs: ({ jobs, deps }) => registerQueueCleanupJob(jobs, deps.queue) }),
  inlineImagesFeature,
  votesFeature,
  commentsFeature,
  aiFeature,
  moderationFeature,
  searchFeature,
  tagsFeature,
  subscriptionsFeature,
  feedsFeature,
  federationFeature,
  analyticsFeature,
  sitePagesFeature,
  webhooksFeature,
  indieauthFeature,
  ghostApiFeature,
  auditFeature,
  // The Outbox only without SMTP_URL: the mails are in the data folder then (issue 58).
  defineFeature({ name: 'mail', routes: ({ deps }) => (deps.config.mail.smtpUrl ? [] : [{ visitors: 'site management', plugin: routes(outboxRoutes, deps) }]) }),
  storageSweepFeature,
  defineFeature({
    name: 'openapi',
    routes: ({ app }) => [
      {
        visitors: 'anyone',
        plugin: (context) => {
          context.get('/api/openapi.json', { schema: { hide: true }, config: neverCached }, async () => app.swagger());
        },
      },
    ],
  }),
];

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's background jobs: `main.ts` starts them, the app's close stops them (docs/jobs.md). */
    jobs: JobRunner;
    /** The durable job queue: its workers start when the app is ready and stop when it closes. */
    queue: JobQueue;
    /** The views counted in memory (docs/analytics.md), written in batches; none with ANALYTICS=false. */
    analytics: AnalyticsBuffer | null;
    /** The site's settings' one accessor (tests change a setting through it, so the app's copy follows). */
    siteSettings: SiteSettingsAccess;
  }
}

/** Builds the whole app as a Fastify instance. It never listens: `main.ts` does. */
export async function buildApp(options: BuildAppOptions) {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    // A random id per request: on every log line of the request and in its answer's `x-request-id`.
    genReqId: () => randomUUID(),
    // A list of proxies is checked once per address, not once per request (http/trusted-proxies.ts).
    trustProxy: Array.isArray(config.trustProxy) ? trustedProxies(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A client that trickles its request, or holds a connection open doing nothing, is cut off.
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.idleTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      // Node checks the request and headers timeouts on this interval (30 s by default).
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(config.http.headersTimeoutMs / 4))),
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Beyond this many open connections, new ones are closed at once instead of exhausting file descriptors.
  app.server.maxConnections = config.http.maxConnections;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestId(app);
  // First of all hooks: a NUL anywhere in a request is bad input, answered before any other work.
  registerBadCharacterGuard(app);
  // Below 2 GB the process has `gc` (`--expose-gc`, see the memory budget): one collection that
  // gives V8's free pages back once requests stop for a few seconds.
  const idleReclaim = registerIdleReclaim(app);
  const now = options.now ?? (() => new Date());
  // The features' hooks that must see every request first (counting views: the buffer writes in batches).
  for (const feature of FEATURES) feature.hooks?.first?.({ app, deps: { config, db: database.db }, testNow: options.now });

  // The transport sends (SMTP, or the outbox folder); the app's mailer only queues: every message
  // is a job of the durable queue, sent at MAIL_SEND_PER_MINUTE and retried while SMTP is down.
  // The site's settings (issue 44): one cached copy per process, forgotten on the cache's notices below.
  const siteSettings = createSiteSettings({ db: database.db, config });
  app.decorate('siteSettings', siteSettings);
  // Every message is from the site's saved name as it is made, unless MAIL_FROM names the sender itself.
  const siteName = async () => (await siteSettings.get()).siteName;
  const transport = fromTheSite(options.mailer ?? createMailer(config, app.log), config.mail.from, siteName);
  const queue = createJobQueue({
    db: database.db,
    log: app.log.child({ module: 'queue' }),
    ...config.queue,
    // PGlite's folder admits one process (`db/data-dir-lock.ts`): a job left running is a crash's, take it back at once.
    releaseRunningAtStart: database.kind === 'pglite',
    now: options.now,
  });
  app.decorate('queue', queue);
  // What writes outside a request changed (cache/content-changes.ts): the cached answers under
  // those tags go, here and in every other process (the invalidation is made below).
  let invalidation: CacheInvalidation | undefined;
  const contentChanges: ContentChanges = { changed: async (tags) => invalidation?.publish(tags) };
  // A blog's lifecycle (core/blog-events.ts): the features below subscribe to its events.
  const blogEvents = createBlogEvents(queue);
  invalidateOnBlogEvents(blogEvents, contentChanges);
  const send = sendRate(config.mail.sendPerMinute);
  registerMailJob(queue, send, transport);
  const mailer = fromTheSite(queuedMailer(database.db, queue), config.mail.from, siteName);
  const auth = createAuth({ config, db: database.db, mailer, log: app.log.child({ module: 'auth' }), siteSettings, hashPassword: options.hashPassword });
  // OWNER_EMAIL's account, if it exists, is the owner from this start on (issue 44).
  await applyOwnerEmail(database.db, config.ownerEmail);
  const storage = options.storage ?? createImageStorage(config);
  const limiter = createRateLimiter({ db: database.db, scale: config.rateLimitScale, secret: config.authSecret });
  // The features' hooks before the response cache's (ActivityPub's Article negotiation), with the
  // blog-event consumers they subscribe there.
  for (const feature of FEATURES) feature.hooks?.beforeResponseCache?.({ app, deps: { config, db: database.db, storage, queue, contentChanges, siteSettings }, blogEvents });
  const sessionMemory = createSessionMemory({ ttlMs: config.sessionCacheMs });
  const sessions = createSessions(auth, database.db, sessionMemory);

  const securityHeaders = securityHeadersFor(config);
  // Before compression, so the cache stores plain bytes and sends its own compressed copies; and
  // before the security headers' hook, since a hit sends them itself (precomputed with its own).
  // One listening connection per process carries both the response cache's notices and the
  // session memory's `session_ended`.
  let publicData = noPublicData;
  const cache = config.responseCacheBytes > 0 ? new ResponseCache(config.responseCacheBytes, securityHeaders) : undefined;
  // Before the cache's hook, which answers hits without running the hooks after it.
  // Features register their background jobs with this one runner, below (docs/jobs.md).
  const jobs = createJobRunner({ database, queue, log: app.log.child({ module: 'jobs' }) });
  app.decorate('jobs', jobs);
  if (config.metrics) {
    // The runner's jobs run on schedules (nothing waits for them); the durable queue's depth is its own gauge.
    const jobMetrics = () => jobs.stats().map((job) => ({ name: job.name, runs: job.runs, failures: job.failures, skipped: job.skipped, running: job.running, waiting: 0 }));
    await registerMetrics(app, config.metrics, { database, cacheCounts: cache?.counts, jobs: jobMetrics, queue: async () => (await queue.overview()).counts, idleCollections: () => idleReclaim.collections });
  }
  // The public part of list pages, for every reader's answer (signed-in ones too): kept beside
  // the cached answers, and dropped with them.
  const publicStore = createPublicDataStore(config.memory.publicDataBytes);
  // Also where the response cache is off: the settings' copy must hear every save, in every process.
  const caches = {
    invalidate(tags: readonly string[]) {
      cache?.invalidate(tags);
      publicStore.invalidate(tags);
      if (settingsChangedBy(tags)) siteSettings.forget();
    },
  };
  // One listening connection per process, whatever is cached: the settings' copy needs its notices too.
  {
    const channels: ExtraChannels = {
      handlers: config.sessionCacheMs > 0 ? { session_ended: (payload) => sessionMemory.ended(payload) } : {},
      reset: (listening) => sessionMemory.trust(listening),
      listenInProcess: database.listen,
    };
    // Postgres: the URL of the handle (tests open their database themselves; the app, from DATABASE_URL).
    const databaseUrl = config.databaseUrl ?? database.url;
    const notices = await createCacheInvalidation({ cache: caches, db: database.db, databaseUrl, channels, log: app.log });
    app.addHook('onClose', () => notices.close());
    invalidation = notices;
    if (cache) {
      publicData = createPublicData(publicStore, notices);
      registerResponseCache(app, cache, notices, limiter);
    }
  }
  const viewerVotes = createViewerVotes(database.db);
  const deps: AuthAppDeps = { config, db: database.db, mailer, queue, auth, sessions, storage, limiter, publicData, viewerVotes, contentChanges, siteSettings };
  registerSecurityHeaders(app, securityHeaders);
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Blogging site API', version: '1.0.0' },
      servers: [{ url: config.publicUrl }],
    },
    transform: jsonSchemaTransform,
  });
  registerErrorHandler(app);
  if (config.sessionCacheMs > 0) registerSessionMemoryHooks(app, sessions);
  registerSameOriginCheck(app, config.publicUrl);

  // The features' routes, in one context per kind of visitor (`core/visitor-contexts.ts`): each
  // context declares once who may call, the staff second-factor rule, the per-account write limit
  // and the caching default; each route says where it is defined what its answers show and what
  // its writes change (`cache/route-caching.ts`): a GET route that declares nothing is refused
  // unless its context has a default.
  const access = { ...deps, staffSecondFactor: staffSecondFactorRule(deps) };
  const host: FeatureHost<AuthAppDeps> = {
    app,
    deps,
    jobs,
    blogEvents,
    mail: { send, transport },
    now,
    // Suspending from /admin is moderation's own action (its events, its log), with the audit entry in its transaction.
    suspendAccount: ((moderator, input, alsoInTransaction) =>
      performAction({ db: deps.db, config }, moderator, { action: input.suspend ? 'suspend' : 'unsuspend', userId: input.userId, reason: input.reason }, alsoInTransaction)) satisfies SuspendAccount,
    // Apps that write blogs (Ghost's Admin API) do it through the blogs feature's own services.
    blogWriting: blogWritingForApps(deps),
  };
  const declared: readonly FeatureRoute[] = FEATURES.flatMap((feature) => feature.routes?.(host) ?? []);
  for (const [name, context] of Object.entries(VISITOR_CONTEXTS) as [ContextName, (typeof VISITOR_CONTEXTS)[ContextName]][]) {
    await app.register(visitorContext(access, context, declared.filter((route) => route.visitors === name).map((route) => route.plugin)));
  }

  // What a fresh site's pages tell its first visitor (issue 58): that the first account is the owner's, where mail goes.
  const firstAccount = firstAccountAwaited(database.db, config.ownerEmail);
  const firstRun = async () => ({ firstAccountAwaited: await firstAccount(), mailToOutbox: !config.mail.smtpUrl });
  const webRoot = options.webRoot ?? DEFAULT_WEB_ROOT;
  const pages = options.pages ?? (config.env === 'development' ? 'vite' : 'built');
  const pageRenderer = pages === 'vite' ? await vitePageRenderer(app, { hmr: config.env === 'development' }) : builtPageRenderer(webRoot);
  await registerWebApp(app, {
    webRoot,
    serveSourceMaps: config.serveSourceMaps,
    uploadsRoot: config.s3 ? undefined : localUploadsDir(config),
    renderPage: pageRenderer && createPageHandler(app, { renderer: pageRenderer, site: async () => ({ ...siteInfoOf(await siteSettings.get(), config.publicUrl, storage), ...(await firstRun()) }) }),
  });
  if (pageRenderer?.close) app.addHook('onClose', () => pageRenderer.close!());

  // The queue's workers run whenever the app is up (tests' apps too): mail must go out.
  app.addHook('onReady', async () => queue.start());
  // The features' blog-event consumers, then their jobs (docs/jobs.md).
  for (const feature of FEATURES) feature.consumers?.(host);
  for (const feature of FEATURES) feature.jobs?.(host);

  app.addHook('onClose', async () => {
    // The views still in memory are written before the database closes (a SIGTERM loses none).
    await app.analytics?.stop();
    // A job stops after the step in hand, before the database it writes to closes.
    await jobs.stop();
    // The jobs running finish before the transport closes (what is still queued waits for the next start).
    await queue.stop();
    transport.close();
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

function securityHeadersFor(config: Config): Record<string, string> {
  const secure = config.publicUrl.startsWith('https://');
  const imageOrigins = config.s3 ? [new URL(config.s3.publicUrl ?? config.s3.endpoint ?? `https://${config.s3.bucket}.s3.amazonaws.com`).origin] : [];
  return helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Vite's development client needs its inline module preamble; production allows none.
        scriptSrc: config.env === 'development' ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...imageOrigins],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: secure ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
}
