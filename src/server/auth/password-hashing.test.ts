import type * as nodeCrypto from 'node:crypto';
import { scryptSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { HASHING_PARALLELISM, hashPassword, verifyPassword } from './password-hashing.js';

/** Counts the scrypt calls in flight (the real scrypt does the work). */
const inFlight = vi.hoisted(() => ({ now: 0, max: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof nodeCrypto>();
  type Callback = (err: Error | null, key: Buffer) => void;
  const scrypt = (...args: unknown[]) => {
    const callback = args.pop() as Callback;
    inFlight.now++;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    (real.scrypt as (...a: unknown[]) => void)(...args, (err: Error | null, key: Buffer) => {
      inFlight.now--;
      callback(err, key);
    });
  };
  return { ...real, scrypt };
});

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one; the same password hashes differently each time', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash, password: 'correct horse battery' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'correct horse batterz' })).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await verifyPassword({ hash: 'garbage', password: 'x' })).toBe(false);
  });

  it('treats equivalent Unicode spellings of a password alike', async () => {
    const hash = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword({ hash, password: 'cafe\u0301 au lait' })).toBe(true);
  });

  it('keeps the event loop free while 10 hashes run at once', async () => {
    // One hash done on the main thread, for scale: a blocking hash would stall timers this long.
    const started = performance.now();
    scryptSync('warm-up', 'salt', 64, { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 });
    const blockingMs = performance.now() - started;

    let last = performance.now();
    let longestGap = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 2);
    const hashingStarted = performance.now();
    const hashes = await Promise.all(Array.from({ length: 10 }, (_, i) => hashPassword(`password number ${i}`)));
    const hashingMs = performance.now() - hashingStarted;
    clearInterval(timer);

    expect(new Set(hashes).size).toBe(10);
    // At most HASHING_PARALLELISM at once: a core and a pool thread stay free for everything else.
    expect(inFlight.max).toBe(HASHING_PARALLELISM);
    expect(inFlight.now).toBe(0);
    // Ten hashes take several blocking-hash times in all, yet no timer waited as long as one hash.
    expect(hashingMs).toBeGreaterThan(blockingMs);
    expect(longestGap).toBeLessThan(blockingMs);
    expect(ticks).toBeGreaterThan(hashingMs / 20);
  });
});
