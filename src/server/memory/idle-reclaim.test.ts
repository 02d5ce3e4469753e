import { afterEach, describe, expect, it, vi } from 'vitest';
import { reclaimWhenIdle } from './idle-reclaim.js';

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
});
