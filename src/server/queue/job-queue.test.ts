import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { enqueueJob } from './job-queue.js';

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
});
