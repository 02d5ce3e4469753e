import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { enqueueJob, enqueueJobs, MAIL_LANE_WORKERS } from './job-queue.js';

describe('the job queue', () => {
  // The queue's clock stands still at a whole millisecond; the database's now() has microseconds.
  const frozenAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000);
  let t: TestApp;
  const ran: string[] = [];
  beforeAll(async () => {
    // A poll an hour apart: only `wake()` can take the job in time.
    t = await createTestApp({ QUEUE_POLL_MS: '3600000' }, { now: () => frozenAt });
    t.app.queue.register<{ name: string }>({ kind: 'probe', run: async (job) => void ran.push(job.payload.name) });
  });
  afterAll(() => t.close());

  it('takes at once a job due within the clock’s current millisecond (run_at has microseconds)', async () => {
    await t.database.db
      .insertInto('queued_jobs')
      .values({ kind: 'probe', key: 'probe:micro', payload: JSON.stringify({ name: 'micro' }), run_at: sql<Date>`${frozenAt}::timestamptz + interval '600 microseconds'` })
      .execute();
    await enqueueJob(t.database.db, { kind: 'probe', key: 'probe:later', payload: { name: 'later' }, runAt: new Date(frozenAt.getTime() + 2) });
    t.app.queue.wake();
    await expect.poll(() => ran, { timeout: 10_000 }).toEqual(['micro']);
    // The job is marked done after its handler returns, in a statement of its own: wait for it.
    const states = () => t.database.db.selectFrom('queued_jobs').select(['key', 'state']).where('kind', '=', 'probe').orderBy('key').execute();
    await expect.poll(states, { timeout: 10_000 }).toEqual([
      { key: 'probe:later', state: 'pending' },
      { key: 'probe:micro', state: 'done' },
    ]);
    expect(ran).toEqual(['micro']);
  });

  it('gives each lane workers of its own: mail runs while deliveries and local work hold every other worker', async () => {
    const concurrency = t.config.queue.concurrency;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = { remote: 0, local: 0 };
    const mailed: string[] = [];
    const hold = (lane: 'remote' | 'local') => async () => {
      holding[lane]++;
      await released;
    };
    t.app.queue.register({ kind: 'hold-remote', lane: 'remote', run: hold('remote') });
    t.app.queue.register({ kind: 'hold-local', run: hold('local') });
    t.app.queue.register<{ name: string }>({ kind: 'mail-probe', lane: 'mail', run: async (job) => void mailed.push(job.payload.name) });
    try {
      const many = (kind: string) => Array.from({ length: 3 * concurrency }, (_, i) => ({ kind, key: `${kind}:${i}` }));
      await enqueueJobs(t.database.db, [...many('hold-remote'), ...many('hold-local')]);
      t.app.queue.wake();
      await expect.poll(() => holding, { timeout: 10_000 }).toEqual({ remote: concurrency, local: concurrency });
      await enqueueJobs(t.database.db, Array.from({ length: MAIL_LANE_WORKERS + 1 }, (_, i) => ({ kind: 'mail-probe', key: `mail-probe:${i}`, payload: { name: `m${i}` } })));
      t.app.queue.wake();
      await expect.poll(() => mailed.length, { timeout: 10_000 }).toBe(MAIL_LANE_WORKERS + 1);
      // No lane took more than its workers.
      expect(holding).toEqual({ remote: concurrency, local: concurrency });
      // The mail jobs count as running until their end is written: on a busy Postgres that is a moment after the last ran.
      await expect.poll(() => t.app.queue.running(), { timeout: 10_000 }).toBe(2 * concurrency);
    } finally {
      release();
    }
  });
});
