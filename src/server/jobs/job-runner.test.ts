import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createJobQueue, type JobQueue } from '../queue/job-queue.js';
import { createJobRunner, recurringKind, type JobRunner } from './job-runner.js';

/** A logger that keeps what it was told, to check each run is logged. */
function recordingLog() {
  const lines: Array<{ level: string; details: Record<string, unknown>; message: string }> = [];
  const at = (level: string) => (first: unknown, message?: string) => {
    const details = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
    lines.push({ level, details, message: message ?? String(typeof first === 'string' ? first : '') });
  };
  const make = (bindings: Record<string, unknown>): FastifyBaseLogger =>
    ({
      level: 'info',
      info: (first: unknown, message?: string) => at('info')(typeof first === 'object' ? { ...bindings, ...(first as object) } : bindings, message ?? (first as string)),
      error: (first: unknown, message?: string) => at('error')(typeof first === 'object' ? { ...bindings, ...(first as object) } : bindings, message ?? (first as string)),
      warn: () => undefined,
      debug: (first: unknown, message?: string) => at('debug')(typeof first === 'object' ? { ...bindings, ...(first as object) } : bindings, message ?? (first as string)),
      trace: () => undefined,
      fatal: () => undefined,
      silent: () => undefined,
      child: (more: Record<string, unknown>) => make({ ...bindings, ...more }),
    }) as unknown as FastifyBaseLogger;
  return { log: make({}), lines };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the job runner', () => {
  let t: TestApp;
  const runners: JobRunner[] = [];
  let attempts = 0;
  beforeAll(async () => {
    // The queue looks for due jobs often, so that periods of a tenth of a second follow each other.
    t = await createTestApp({ QUEUE_POLL_MS: '20' });
  });
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    await t.close();
  });
  const runner = (log = recordingLog().log, queue?: JobQueue) => {
    const made = createJobRunner({ database: t.database, log, queue });
    runners.push(made);
    return made;
  };

  it('runs before-listen jobs inside start(), background ones right after, and scheduled ones once per period', async () => {
    const jobs = runner(recordingLog().log, t.app.queue);
    const order: string[] = [];
    jobs.register({ name: 'first', runAtStart: 'before-listen', run: async () => void order.push('first') });
    jobs.register({ name: 'soon', runAtStart: 'background', run: async () => void order.push('soon') });
    let ticks = 0;
    // A name of its own per attempt: the app's queue keeps the kind a failed attempt registered.
    jobs.register({ name: `ticking-${++attempts}`, intervalMs: 100, run: async () => ({ ticks: ++ticks }) });
    await jobs.start();
    expect(order).toEqual(['first']);
    await vi.waitFor(() => expect(order).toEqual(['first', 'soon']));
    await vi.waitFor(() => expect(ticks).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    await jobs.stop();
    const stopped = ticks;
    const stats = Object.fromEntries(jobs.stats().map((each) => [each.name, each]));
    expect(stats.first).toMatchObject({ runs: 1, failures: 0, running: false });
    expect(stats[`ticking-${attempts}`]).toMatchObject({ runs: stopped, failures: 0, lastCounts: { ticks: stopped } });
    expect(stats[`ticking-${attempts}`]!.lastDurationMs).toBeGreaterThanOrEqual(0);
    // Stopped means stopped: no later tick.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ticks).toBe(stopped);
  });

  it('runs a scheduled job once per period with two processes: each period is one job of the queue, taken by one of them', async () => {
    // Two "processes": two queues and two runners on the one database, each registering the same job.
    const other = createJobQueue({ db: t.database.db, log: recordingLog().log, pollMs: 20 });
    const runs: string[] = [];
    const first = runner(recordingLog().log, t.app.queue);
    const second = runner(recordingLog().log, other);
    first.register({ name: 'shared', intervalMs: 150, run: async () => void runs.push('first') });
    second.register({ name: 'shared', intervalMs: 150, run: async () => void runs.push('second') });
    await Promise.all([first.start(), second.start(), other.start()]);
    try {
      await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
    } finally {
      await Promise.all([first.stop(), second.stop()]);
      await other.stop();
    }
    const periods = await t.database.db.selectFrom('queued_jobs').select(['key', 'state']).where('kind', '=', recurringKind('shared')).where('state', '=', 'done').execute();
    // Every run is one period's job, done once: as many runs as periods done, no key twice.
    expect(runs.length).toBe(periods.length);
    expect(new Set(periods.map((row) => row.key)).size).toBe(periods.length);
  });

  it('logs the start, the end with its counts, and a failure; counts the failure; runs the job again at its next turn', async () => {
    const { log, lines } = recordingLog();
    const jobs = runner(log);
    let calls = 0;
    jobs.register({
      name: 'flaky',
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('storage unreachable');
        return { removed: 2, bytesFreed: 100 };
      },
    });
    expect(await jobs.runNow('flaky')).toMatchObject({ status: 'failed' });
    expect(await jobs.runNow('flaky')).toEqual({ status: 'done', counts: { removed: 2, bytesFreed: 100 } });
    expect(jobs.stats()[0]).toMatchObject({ runs: 2, failures: 1, lastCounts: { removed: 2, bytesFreed: 100 }, lastError: null });
    const mine = lines.filter((line) => line.details.job === 'flaky').map((line) => [line.level, line.message]);
    expect(mine).toEqual([
      ['info', 'job started'],
      ['error', 'job failed; it runs again at its next turn'],
      ['info', 'job started'],
      ['info', 'job finished'],
    ]);
    expect(lines.find((line) => line.message === 'job finished')!.details).toMatchObject({ counts: { removed: 2, bytesFreed: 100 } });
  });

  it('never runs a job twice at once in one process, and stop() waits for the run in hand, which sees the abort', async () => {
    const jobs = runner();
    const release = deferred();
    const started = deferred();
    let sawAbort = false;
    jobs.register({
      name: 'slow',
      run: async ({ signal }) => {
        started.resolve();
        await release.promise;
        sawAbort = signal.aborted;
        return { done: 1 };
      },
    });
    const first = jobs.runNow('slow');
    await started.promise;
    expect(await jobs.runNow('slow')).toEqual({ status: 'skipped' });
    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(await first).toEqual({ status: 'done', counts: { done: 1 } });
    expect(sawAbort).toBe(true);
  });

  it('refuses a second job of the same name, and registrations after start', async () => {
    const jobs = runner();
    jobs.register({ name: 'once', run: async () => undefined });
    expect(() => jobs.register({ name: 'once', run: async () => undefined })).toThrow(/registered twice/);
    await jobs.start();
    expect(() => jobs.register({ name: 'late', run: async () => undefined })).toThrow(/before the runner starts/);
  });

  it('a before-listen failure fails start()', async () => {
    const jobs = runner();
    jobs.register({ name: 'broken', runAtStart: 'before-listen', run: async () => Promise.reject(new Error('no')) });
    await expect(jobs.start()).rejects.toThrow('no');
  });

  it('is the app\'s: buildApp registers the features\' jobs, and the app\'s close stops them', () => {
    expect(t.app.jobs.stats().map((each) => each.name).sort()).toEqual(['analytics-rollup', 'blog-rendering-backfill', 'federation-kv-cleanup', 'image-variants-backfill', 'queue-cleanup', 'storage-sweep']);
  });
});
