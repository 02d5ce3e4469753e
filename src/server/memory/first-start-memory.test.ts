import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealth } from '../testing/server-process.js';

/** A process's peak resident memory so far, in MB (`VmHWM`). */
function peakMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/**
 * The first start is the hungriest moment of an embedded site's life (PGlite's `initdb` took its
 * WebAssembly heap to about 900 MB). On a 512 MB budget it must stay far below that: measured
 * about 225 MB for the built server; from source, tsx adds its compiler (about 60 MB). The bound
 * leaves room for that and for noise (runs here: 290 to 330 MB), and still fails if `initdb` or TurboFan's recompiling of
 * PGlite comes back (both several hundred MB more).
 */
const FIRST_START_BOUND_MB = 400;

describe('memory', () => {
  it(`starts on an empty data folder within ${FIRST_START_BOUND_MB} MB, saying its budget and split`, async () => {
    const port = await freePort();
    const server = startServer({
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'blog-memory-')),
      MEMORY_LIMIT_MB: '512',
      LOG_LEVEL: 'info',
    });
    await waitForHealth(port, 90_000);
    const peak = peakMb(server.child.pid!);
    const log = server.stdout();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    console.log(`first start: VmHWM ${peak.toFixed(0)} MB`);
    expect(peak).toBeLessThan(FIRST_START_BOUND_MB);
    expect(log).toMatch(/memory: 512 MB \(MEMORY_LIMIT_MB\): response cache \d+ MB, public data \d+ MB, sharp cache \d+ MB, 1 thread, .*PGlite shared_buffers 16 MB, node --liftoff-only --max-old-space-size=256 --max-semi-space-size=4 --expose-gc, MALLOC_ARENA_MAX=2, MALLOC_MMAP_THRESHOLD_=131072/);
    // Started from the build's empty cluster, not from initdb.
    expect(log).not.toMatch(/ran initdb/);
  }, 120_000);

  it('refuses, in one line, a budget below what it needs', async () => {
    const server = startServer({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'blog-memory-')), MEMORY_LIMIT_MB: '200' });
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toEqual(['Not enough memory: 200 MB (MEMORY_LIMIT_MB) is below the 256 MB this server needs with the embedded database (a Postgres server in DATABASE_URL needs less)']);
  });
});
