import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { describeSplit, detectMemoryLimit, splitMemory, type MemoryProbe } from './memory-budget.js';

const MB = 1024 * 1024;
const GB = 1024 * MB;

function probe(files: Record<string, string>, machine = 8 * GB): MemoryProbe {
  return { readFile: (file) => files[file], totalmem: () => machine };
}

describe('the memory budget', () => {
  it('reads a cgroup v1 limit, the smallest on the way up the hierarchy', () => {
    const limit = detectMemoryLimit(
      probe({
        '/proc/self/cgroup': '5:cpu,cpuacct:/a\n4:memory:/app/web\n',
        '/sys/fs/cgroup/memory/app/web/memory.limit_in_bytes': '9223372036854771712\n',
        '/sys/fs/cgroup/memory/app/memory.limit_in_bytes': `${512 * MB}\n`,
        '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712\n',
      }),
    );
    expect(limit).toEqual({ bytes: 512 * MB, source: 'cgroup v1' });
  });

  it('reads a cgroup v2 limit, and "max" as none', () => {
    expect(
      detectMemoryLimit(probe({ '/proc/self/cgroup': '0::/svc\n', '/sys/fs/cgroup/svc/memory.max': `${256 * MB}\n`, '/sys/fs/cgroup/memory.max': 'max\n' })),
    ).toEqual({ bytes: 256 * MB, source: 'cgroup v2' });
    expect(detectMemoryLimit(probe({ '/proc/self/cgroup': '0::/svc\n', '/sys/fs/cgroup/svc/memory.max': 'max\n' }, 2 * GB))).toEqual({
      bytes: 2 * GB,
      source: 'machine',
    });
  });

  it('never counts on more than the machine has', () => {
    expect(
      detectMemoryLimit(probe({ '/proc/self/cgroup': '4:memory:/\n', '/sys/fs/cgroup/memory/memory.limit_in_bytes': `${16 * GB}` }, 1 * GB)),
    ).toEqual({ bytes: 1 * GB, source: 'machine' });
  });

  it('shares a small budget out small and a large one up to the defaults', () => {
    const small = splitMemory({ bytes: 512 * MB, source: 'cgroup v1' }, { database: 'pglite', cores: 2 });
    expect(small.responseCacheBytes).toBeLessThan(64 * MB);
    expect(small.responseCacheBytes).toBeGreaterThanOrEqual(4 * MB);
    expect(small.sharpCacheBytes).toBeLessThan(50 * MB);
    expect(small.sharpConcurrency).toBe(1);
    expect(small.imageJobs).toBe(2);
    expect(small.pgliteSharedBuffersBytes).toBe(16 * MB);
    expect(small.nodeFlags).toContain('--liftoff-only');
    expect(small.nodeFlags).toContain('--expose-gc');
    expect(small.processEnv).toMatchObject({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });

    const large = splitMemory({ bytes: 8 * GB, source: 'machine' }, { database: 'pglite', cores: 4 });
    expect(large).toMatchObject({ responseCacheBytes: 64 * MB, publicDataBytes: 20 * MB, sharpCacheBytes: 50 * MB, sharpConcurrency: 4, pgliteSharedBuffersBytes: 128 * MB, nodeFlags: [], processEnv: {}, restartEnv: {} });

    const postgres = splitMemory({ bytes: 192 * MB, source: 'MEMORY_LIMIT_MB' }, { database: 'postgres', cores: 2 });
    expect(postgres.pgliteSharedBuffersBytes).toBeUndefined();
    expect(postgres.nodeFlags).toEqual(['--max-old-space-size=256', '--max-semi-space-size=1', '--no-maglev', '--expose-gc']);
    expect(describeSplit(postgres)).toMatch(/^memory: 192 MB \(MEMORY_LIMIT_MB\): response cache \d+ MB, public data \d+ MB, sharp cache \d+ MB, 1 thread, 1 image at once, node /);
  });

  it('is set by MEMORY_LIMIT_MB, and RESPONSE_CACHE_MB still wins for the response cache', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', AUTH_SECRET: 'x'.repeat(32), MEMORY_LIMIT_MB: '1024', RESPONSE_CACHE_MB: '3' });
    expect(config.memory.budgetBytes).toBe(1024 * MB);
    expect(config.responseCacheBytes).toBe(3 * MB);
    const operators = loadConfig({ DATA_DIR: '/tmp/x', AUTH_SECRET: 'x'.repeat(32), MEMORY_LIMIT_MB: '512', MALLOC_ARENA_MAX: '4' }).memory;
    expect(operators.processEnv.MALLOC_ARENA_MAX).toBe('4');
    expect(operators.restartEnv.MALLOC_ARENA_MAX).toBeUndefined();
    expect(loadConfig({ DATA_DIR: '/tmp/x', AUTH_SECRET: 'x'.repeat(32), MEMORY_LIMIT_MB: '512' }).memory.restartEnv).toMatchObject({ MALLOC_ARENA_MAX: '2' });
    const detected = loadConfig({ DATA_DIR: '/tmp/x', AUTH_SECRET: 'x'.repeat(32) }, probe({}, 700 * MB));
    expect(detected.memory).toMatchObject({ budgetBytes: 700 * MB, source: 'machine' });
  });

  it('stops with one line below the smallest budget, which is smaller on a Postgres server', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', AUTH_SECRET: 'x'.repeat(32), MEMORY_LIMIT_MB: '200' })).toThrow(
      /^Not enough memory: 200 MB \(MEMORY_LIMIT_MB\) is below the 256 MB/,
    );
    const onPostgres = { DATA_DIR: '/tmp/x', AUTH_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://localhost/x' };
    expect(loadConfig({ ...onPostgres, MEMORY_LIMIT_MB: '200' }).memory.budgetBytes).toBe(200 * MB);
    expect(() => loadConfig({ ...onPostgres, MEMORY_LIMIT_MB: '150' })).toThrow(/below the 160 MB this server needs on a Postgres server/);
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', MEMORY_LIMIT_MB: 'lots' })).toThrow(/^Invalid configuration: MEMORY_LIMIT_MB must be a whole number/);
  });
});
