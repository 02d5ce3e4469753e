import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealth } from '../testing/server-process.js';

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/throwaway-postgres.sh');

/**
 * Its own throwaway cluster (the run's shared one must stay up for the other tests), stopped
 * and started again while requests keep coming.
 */
describe('the database restarting mid-traffic', () => {
  let cluster: { url: string; dir: string };
  beforeAll(() => {
    const exports = execFileSync(SCRIPT, ['start'], { encoding: 'utf8' });
    const value = (name: string) => new RegExp(`export ${name}=(\\S+)`).exec(exports)?.[1] ?? '';
    cluster = { url: value('TEST_DATABASE_URL'), dir: value('PG_THROWAWAY_DIR') };
    expect(cluster.url).toMatch(/^postgres:/);
  }, 60_000);
  afterAll(() => {
    if (cluster?.dir) execFileSync(SCRIPT, ['stop', cluster.dir]);
  });

  it('answers 503 with a clear message while it is down, never crashes, and recovers on its own', async () => {
    const port = await freePort();
    const server = startServer({
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'blog-restart-')),
      DATABASE_URL: cluster.url,
      RATE_LIMIT_SCALE: '1000',
      // `execFileSync` below stops this process's event loop while the cluster stops (seconds on a
      // loaded machine): the server must not close the idle keep-alive connections meanwhile, or
      // fetch reuses a closed one ("other side closed") and the test fails for its own reasons.
      KEEP_ALIVE_TIMEOUT_MS: '120000',
    });
    await waitForHealth(port);
    const base = `http://127.0.0.1:${port}`;
    const origin = `http://localhost:${port}`;
    const statuses: number[] = [];
    const bodies = new Map<number, unknown>();
    let running = true;
    const traffic = (async () => {
      let i = 0;
      while (running) {
        const response =
          i++ % 2 === 0
            ? await fetch(`${base}/api/blogs?page=1`)
            : await fetch(`${base}/api/contact`, {
                method: 'POST',
                headers: { origin, 'content-type': 'application/json' },
                body: JSON.stringify({ email: 'restart@example.com', message: `message ${i}` }),
              });
        statuses.push(response.status);
        if (!bodies.has(response.status)) bodies.set(response.status, await response.json());
        else await response.arrayBuffer();
      }
    })();

    // Traffic flows, then the database goes away under it.
    await expect.poll(() => statuses.filter((status) => status < 300).length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(4);
    execFileSync(SCRIPT, ['down', cluster.dir]);
    const health = await fetch(`${base}/api/health`).catch((err: unknown) => {
      throw new Error(`no answer while the database is down (exit code ${server.child.exitCode}); the server's stderr:\n${server.stderr()}`, { cause: err });
    });
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('5');
    expect(await health.json()).toEqual({
      error: 'SERVICE_UNAVAILABLE',
      message: 'The site cannot reach its database right now. Please try again in a moment.',
    });
    // The traffic meets the outage too, and is served again once the database is back.
    await expect.poll(() => statuses.includes(503), { timeout: 20_000, interval: 50 }).toBe(true);
    const duringOutage = statuses.length;
    execFileSync(SCRIPT, ['up', cluster.dir]);
    await waitForHealth(port, 20_000);
    await expect.poll(() => statuses.slice(duringOutage).filter((status) => status < 300).length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    running = false;
    await traffic;

    expect(server.child.exitCode).toBeNull();
    expect(statuses).toContain(503);
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(bodies.get(503)).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
    // Served again after the restart.
    expect(statuses.at(-1)).toBeLessThan(300);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});
