import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { neverCached } from '../cache/route-caching.js';

/** What the metrics read from the rest of the app, on each scrape or as it happens. */
export interface MetricsSources {
  database: DatabaseHandle;
  /** The response cache's counts, when the cache is on. */
  cacheCounts?: { hits: number; misses: number };
  /** Background jobs: runs, failures and what waits, per job. */
  jobs?: () => readonly JobMetrics[];
  /** The durable queue's jobs by state (pending, running, done, failed), read at scrape time. */
  queue?: () => Promise<Record<string, number>>;
  /** Full collections made because the server went idle (`memory/idle-reclaim.ts`). */
  idleCollections?: () => number;
}

export interface JobMetrics {
  name: string;
  runs: number;
  failures: number;
  /** Turns skipped because another process held the job's lock. */
  skipped: number;
  running: boolean;
  /** Work waiting for this job (a queue's depth); 0 for a job that only runs on a schedule. */
  waiting: number;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Prometheus metrics (prom-client), only when the operator asked for them (`METRICS_TOKEN` or
 * `METRICS_PORT`): prom-client is not even loaded otherwise. Requests are counted by route
 * pattern (never the raw URL, which would make a series per blog) and status, with a latency
 * histogram; cache hits (answered before any route runs) count under their own pattern.
 */
export async function registerMetrics(app: FastifyInstance, config: NonNullable<Config['metrics']>, sources: MetricsSources): Promise<void> {
  const client = await import('prom-client');
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new client.Counter({ name: 'http_requests_total', help: 'Requests answered, by route pattern, method and status.', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const latency = new client.Histogram({ name: 'http_request_duration_seconds', help: 'Time from request to the last byte of the answer.', labelNames: ['route', 'method'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const queries = new client.Histogram({ name: 'db_query_duration_seconds', help: 'Database statements, by outcome.', labelNames: ['outcome'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const stopObserving = sources.database.observeQueries((ms, failed) => queries.observe({ outcome: failed ? 'error' : 'ok' }, ms / 1000));
  app.addHook('onClose', async () => {
    stopObserving();
  });

  new client.Gauge({
    name: 'db_pool_connections',
    help: 'Postgres pool connections by state (PGlite has one, always in use).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = sources.database.poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  const cacheCounts = sources.cacheCounts;
  if (cacheCounts) {
    new client.Counter({ name: 'response_cache_hits_total', help: 'Anonymous requests answered from the response cache.', registers: [registry], collect() { this.reset(); this.inc(cacheCounts.hits); } });
    new client.Counter({ name: 'response_cache_misses_total', help: 'Cacheable requests the response cache did not hold.', registers: [registry], collect() { this.reset(); this.inc(cacheCounts.misses); } });
  }
  const queue = sources.queue;
  if (queue) {
    new client.Gauge({
      name: 'queued_jobs',
      help: 'Jobs of the durable queue (mail, scheduled publishing) by state, all processes together.',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        for (const [state, count] of Object.entries(await queue())) this.set({ state }, count);
      },
    });
  }
  const jobs = sources.jobs;
  if (jobs) {
    new client.Gauge({ name: 'job_runs_total', help: 'Runs of each background job since start.', labelNames: ['job'], registers: [registry], collect() { for (const job of jobs()) this.set({ job: job.name }, job.runs); } });
    new client.Gauge({ name: 'job_failures_total', help: 'Failed runs of each background job since start.', labelNames: ['job'], registers: [registry], collect() { for (const job of jobs()) this.set({ job: job.name }, job.failures); } });
    new client.Gauge({ name: 'job_skipped_total', help: 'Turns of each job skipped because another process ran it.', labelNames: ['job'], registers: [registry], collect() { for (const job of jobs()) this.set({ job: job.name }, job.skipped); } });
    new client.Gauge({ name: 'job_queue_depth', help: 'Work waiting for each background job.', labelNames: ['job'], registers: [registry], collect() { for (const job of jobs()) this.set({ job: job.name }, job.waiting); } });
    new client.Gauge({ name: 'job_running', help: '1 while the job runs in this process.', labelNames: ['job'], registers: [registry], collect() { for (const job of jobs()) this.set({ job: job.name }, job.running ? 1 : 0); } });
  }

  const idleCollections = sources.idleCollections;
  if (idleCollections) {
    new client.Counter({ name: 'memory_idle_collections_total', help: 'Full garbage collections made once requests stopped after the heap grew (below 2 GB).', registers: [registry], collect() { this.reset(); this.inc(idleCollections()); } });
  }

  // On the raw response's finish, so answers the cache sends straight to the socket count too.
  app.addHook('onRequest', (request, reply, done) => {
    const started = process.hrtime.bigint();
    reply.raw.once('finish', () => {
      const route = request.routeOptions.url ?? (reply.statusCode === 404 ? 'unmatched' : 'other');
      requests.inc({ route, method: request.method, status: String(reply.raw.statusCode) });
      latency.observe({ route, method: request.method }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    done();
  });

  const exposition = async () => ({ body: await registry.metrics(), contentType: registry.contentType });
  if (config.token) {
    const expected = Buffer.from(`Bearer ${config.token}`);
    app.get('/metrics', { schema: { hide: true }, config: neverCached }, async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        // Answered here: this route is declared before the app's error handler exists.
        return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'UNAUTHORIZED', message: 'Send the metrics token as a Bearer token.' });
      }
      const { body, contentType } = await exposition();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  }
  if (config.port) {
    const server: Server = createServer((request, response) => {
      if (request.url !== '/metrics') {
        response.writeHead(404).end();
        return;
      }
      exposition().then(
        ({ body, contentType }) => response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
        (err: unknown) => {
          app.log.error({ err }, 'metrics: scrape failed');
          response.writeHead(500).end();
        },
      );
    });
    app.addHook('onListen', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { address: string }).address : undefined, () => resolve());
      });
      app.log.info(`metrics on port ${config.port}`);
    });
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }
}
