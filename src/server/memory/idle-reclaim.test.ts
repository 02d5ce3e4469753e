import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerIdleReclaim, reclaimWhenIdle } from './idle-reclaim.js';

describe('reclaimWhenIdle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects once after requests stop for the idle time, and not while they go on, when nothing happened or when the heap barely grew', () => {
    vi.useFakeTimers();
    let heap = 50;
    const gc = vi.fn(() => {
      heap = 50;
    });
    const reclaim = reclaimWhenIdle({ idleMs: 1000, gc, grownBytes: 8, heapBytes: () => heap });

    vi.advanceTimersByTime(5000);
    expect(gc).not.toHaveBeenCalled(); // no work since the start

    for (let i = 0; i < 10; i++) {
      reclaim.touch();
      heap += 2;
      vi.advanceTimersByTime(400);
    }
    expect(gc).not.toHaveBeenCalled(); // busy

    vi.advanceTimersByTime(1600);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'sync', flavor: 'last-resort' });

    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(1); // once per quiet spell

    reclaim.touch();
    heap += 4;
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(1); // the heap grew too little to be worth it

    reclaim.touch();
    heap += 4;
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(2);
    expect(reclaim.collections).toBe(2);
    reclaim.stop();
  });

  it('does nothing without gc (no --expose-gc)', () => {
    const reclaim = reclaimWhenIdle({ idleMs: 10, gc: undefined });
    reclaim.touch();
    expect(reclaim.collections).toBe(0);
    reclaim.stop();
  });

  it('counts requests answered by a later hook (the response cache) as work, and stops with the app', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let heap = 50;
    const gc = vi.fn(() => {
      heap = 50;
    });
    const app = Fastify();
    const reclaim = registerIdleReclaim(app, { idleMs: 1000, gc, grownBytes: 8, heapBytes: () => heap });
    // Like the response cache: answers in its onRequest hook, so the hooks after it never run.
    app.addHook('onRequest', async (_request, reply) => reply.send('from the cache'));
    app.get('/', async () => 'from the route');

    for (let i = 0; i < 5; i++) {
      expect((await app.inject('/')).body).toBe('from the cache');
      heap += 4;
      vi.advanceTimersByTime(400);
    }
    expect(gc).not.toHaveBeenCalled(); // the hits kept it busy
    vi.advanceTimersByTime(1600);
    expect(reclaim.collections).toBe(1);

    // Work, then the app closes before the quiet spell: no collection follows.
    await app.inject('/');
    heap += 40;
    await app.close();
    vi.advanceTimersByTime(5000);
    expect(reclaim.collections).toBe(1);
  });
});
