import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../testing/server-process.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { signUpUser } from '../testing/test-users.js';
import { urlForLog } from '../http/logging.js';

const TOKEN = 'a-metrics-token-long-enough';
const metricsHeaders = { authorization: `Bearer ${TOKEN}` };

// Each test builds an app of its own: slow on a busy machine. The log of a real run is observability-log.test.ts.
describe('metrics, readiness and request ids', { timeout: 120_000 }, () => {
  let ctx: TestApp | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('has no /metrics unless the operator turns it on', async () => {
    ctx = await createTestApp();
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('serves Prometheus metrics for the token only: requests by route pattern, cache, database, event loop', async () => {
    ctx = await createTestApp({ METRICS_TOKEN: TOKEN, RESPONSE_CACHE_MB: '8' });
    const user = await signUpUser(ctx.app);
    const blog = await postBlog(ctx.app, user, { title: 'Counted', blog: 'Text.' });
    await ctx.settled();
    for (let i = 0; i < 3; i += 1) await ctx.app.inject({ method: 'GET', url: '/api/blogs?page=1' });
    await ctx.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` });

    for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', `Basic ${TOKEN}`]) {
      const refused = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'UNAUTHORIZED' });
    }
    const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: metricsHeaders });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    // By pattern, never by raw URL: one series for every blog.
    expect(text).toMatch(/http_requests_total\{route="\/api\/blogs",method="GET",status="200"\} 3/);
    expect(text).toMatch(/http_requests_total\{route="\/api\/blogs\/:id",method="GET",status="200"\} 1/);
    expect(text).not.toContain(blog.id);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",route="\/api\/blogs",method="GET"\}/);
    // The first list request filled the cache, the next two were hits.
    expect(text).toMatch(/response_cache_hits_total 2/);
    expect(text).toMatch(/response_cache_misses_total [1-9]/);
    expect(text).toMatch(/db_query_duration_seconds_count\{outcome="ok"\} [1-9]/);
    // At least the one the requests used (on Postgres the queue's worker may have opened another).
    expect(text).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // The app's background jobs are registered (not started: tests start none), each with its series.
    expect(text).toMatch(/job_runs_total\{job="storage-sweep"\} 0/);
    expect(text).toMatch(/job_failures_total\{job="storage-sweep"\} 0/);
    // The durable queue by state: the published blog's announcement went through it.
    expect(text).toMatch(/queued_jobs\{state="done"\} [1-9]/);
    expect(text).toMatch(/queued_jobs\{state="failed"\} 0/);
    // The idle collection (none: tests run without --expose-gc, and the app is never idle here).
    expect(text).toMatch(/memory_idle_collections_total 0/);
  });

  it('serves the metrics on a port of their own when METRICS_PORT is set', async () => {
    const metricsPort = await freePort();
    ctx = await createTestApp({ METRICS_PORT: String(metricsPort) });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    await fetch(`http://127.0.0.1:${port}/api/blogs?page=1`);
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/http_requests_total\{route="\/api\/blogs",method="GET",status="200"\} 1/);
    // Not on the site's own port: only the token would open it there.
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
  });

  it('says it is ready when the database and the image store answer, and 503 when the store does not', async () => {
    ctx = await createTestApp();
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
    await ctx.close();

    // An S3 endpoint where nothing listens: the store cannot be reached.
    ctx = await createTestApp({ S3_BUCKET: 'unreachable', S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`, S3_ACCESS_KEY_ID: 'x', S3_SECRET_ACCESS_KEY: 'y' });
    const notReady = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toMatchObject({ error: 'SERVICE_UNAVAILABLE', checks: { database: 'ok', storage: 'failed' } });
    // Liveness does not depend on the store.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('names each request in its answer, a cache hit and an error included', async () => {
    ctx = await createTestApp({ RESPONSE_CACHE_MB: '8' });
    const ids = new Set<string>();
    for (const url of ['/api/blogs?page=1', '/api/blogs?page=1', '/api/blogs/not-a-blog', '/api/nothing-here']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      const id = response.headers['x-request-id'];
      expect(id, url).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(String(id));
    }
    expect(ids.size).toBe(4);
  });

  it('keeps tokens and e-mail addresses out of logged URLs', () => {
    expect(urlForLog('/api/auth/magic-link/verify?token=abc123&callbackURL=%2F')).toBe('/api/auth/magic-link/verify?token=[redacted]&callbackURL=[redacted]');
    expect(urlForLog('/api/auth/reset-password/tok123?callbackURL=%2Freset')).toBe('/api/auth/reset-password/[redacted]?callbackURL=[redacted]');
    expect(urlForLog('/?sort=hot&page=2')).toBe('/?sort=hot&page=2');
    expect(urlForLog('/author/someone%40example.com')).toBe('/author/[redacted]');
  });

});
