import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { enqueueJob, type JobQueue } from '../queue/job-queue.js';
import { withJobLock } from './job-lock.js';

/** What a run did, by name (`{ removed: 3, bytesFreed: 51200 }`): logged, and kept in the job's stats. */
export type JobCounts = Record<string, number>;

export interface JobContext {
  /** Aborted when the app stops: a job checks it between steps and returns what it has done. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

export interface JobDefinition {
  /** Unique, kebab-case: names the job in logs, stats and its lock. */
  name: string;
  /**
   * `before-listen`: `start()` runs it and waits for it (work every request needs done first);
   * a failure stops the start. `background`: its first run starts with `start()`, unawaited.
   * Unset: the first run waits for the interval.
   */
  runAtStart?: 'before-listen' | 'background';
  /**
   * Runs once in each period of this length (periods counted from the epoch), as a recurring job of
   * the durable queue: with any number of processes, one run per period. Unset: no schedule.
   */
  intervalMs?: number;
  run(context: JobContext): Promise<JobCounts | void>;
}

export interface JobStats {
  name: string;
  /** Runs that finished, failed or not. */
  runs: number;
  failures: number;
  /** Turns skipped because another process held the job's lock. */
  skipped: number;
  running: boolean;
  lastStartedAt: Date | null;
  lastDurationMs: number | null;
  lastCounts: JobCounts | null;
  lastError: string | null;
}

export type JobOutcome =
  | { status: 'done'; counts: JobCounts }
  | { status: 'failed'; error: unknown }
  /** Another process (or this one) is running it now. */
  | { status: 'skipped' };

export interface JobRunner {
  /** Adds a job; only before `start()`. */
  register(job: JobDefinition): void;
  /** Runs the `before-listen` jobs, then schedules the rest. */
  start(): Promise<void>;
  /** Cancels what is scheduled, aborts what runs, and waits for it to return. */
  stop(): Promise<void>;
  /** One run now, under the job's lock (the CLIs, and tests). */
  runNow(name: string, options?: { signal?: AbortSignal }): Promise<JobOutcome>;
  /** Each job's figures since this process started, for logs and a future `/metrics`. */
  stats(): JobStats[];
}

export interface JobRunnerDeps {
  database: { db: Kysely<Database>; kind: DatabaseKind };
  log: FastifyBaseLogger;
  /** Runs the scheduled jobs (the app's); a runner without one (a command line's) only runs `runNow`. */
  queue?: JobQueue;
}

/** The queue's kind for a recurring job. */
export const recurringKind = (name: string) => `recurring:${name}`;

/** A recurring job's run for the period `slot` (the period's index since the epoch): one per key. */
function recurringJob(name: string, intervalMs: number, slot: number, runAt: Date) {
  return { kind: recurringKind(name), key: `${recurringKind(name)}:${intervalMs}:${slot}`, payload: { slot }, runAt, maxAttempts: 2 };
}

interface JobState {
  job: JobDefinition;
  stats: JobStats;
  running: Promise<JobOutcome> | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The server's own work, outside requests: each feature registers its jobs (`*.job.ts` beside its
 * code), `buildApp` owns the runner, `main.ts` starts it and the app's close stops it. Start-up
 * work runs here (before the server listens, or once in the background); scheduled work is a
 * recurring job of the durable queue, one run per period across processes. See docs/jobs.md.
 */
export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const jobs = new Map<string, JobState>();
  const stopping = new AbortController();
  let started = false;

  const runOnce = (state: JobState, signal: AbortSignal): Promise<JobOutcome> => {
    if (state.running) return Promise.resolve({ status: 'skipped' });
    const running = execute(state, signal).finally(() => {
      state.running = null;
      state.stats.running = false;
    });
    state.running = running;
    state.stats.running = true;
    return running;
  };

  const execute = async (state: JobState, signal: AbortSignal): Promise<JobOutcome> => {
    const { job, stats } = state;
    const log = deps.log.child({ job: job.name });
    const startedAt = Date.now();
    try {
      const outcome = await withJobLock(deps.database, job.name, async () => {
        log.info('job started');
        stats.lastStartedAt = new Date(startedAt);
        return (await job.run({ signal, log })) ?? {};
      });
      if (!outcome.locked) {
        stats.skipped++;
        log.debug('job skipped: another process is running it');
        return { status: 'skipped' };
      }
      const durationMs = Date.now() - startedAt;
      Object.assign(stats, { runs: stats.runs + 1, lastDurationMs: durationMs, lastCounts: outcome.result, lastError: null });
      log.info({ durationMs, counts: outcome.result, stopped: signal.aborted }, 'job finished');
      return { status: 'done', counts: outcome.result };
    } catch (err) {
      const durationMs = Date.now() - startedAt;
      Object.assign(stats, { runs: stats.runs + 1, failures: stats.failures + 1, lastDurationMs: durationMs, lastError: String((err as Error)?.message ?? err) });
      log.error({ err, durationMs }, 'job failed; it runs again at its next turn');
      return { status: 'failed', error: err };
    }
  };

  const schedule = (state: JobState, delayMs: number) => {
    if (stopping.signal.aborted) return;
    state.timer = setTimeout(() => {
      state.timer = null;
      void runOnce(state, stopping.signal);
    }, delayMs);
    // A scheduled run never keeps the process alive by itself.
    state.timer.unref();
  };

  /**
   * The next period's run, queued before this one's work starts (a failed or killed run does not
   * break the chain; each start queues it too). Its key names the period: whichever process queues
   * it first, it exists once, and the queue gives it to one process.
   */
  const queueNextPeriod = async (job: JobDefinition, intervalMs: number, now = Date.now()) => {
    const slot = Math.floor(now / intervalMs) + 1;
    await enqueueJob(deps.database.db, recurringJob(job.name, intervalMs, slot, new Date(slot * intervalMs)));
  };

  const registerRecurring = (queue: JobQueue, state: JobState, intervalMs: number) => {
    queue.register<{ slot: number }>({
      kind: recurringKind(state.job.name),
      async run() {
        // A runner that is stopping (its queue stops after it) gives the period back as a failed
        // attempt, retried by whichever process is up: returning would mark it done unrun and
        // end the chain of periods, which each run queues (a rolling restart's survivor would
        // never run the job again until its own next start).
        const giveBack = () => {
          if (stopping.signal.aborted) throw new Error(`job ${state.job.name}: this process is stopping; the period is left to another`);
        };
        giveBack();
        await queueNextPeriod(state.job, intervalMs);
        // stop() may have come while the next period was queued: it saw no run in hand, so none may start.
        giveBack();
        // A failure is logged and counted by the runner; the next period runs as usual.
        await runOnce(state, stopping.signal);
      },
    });
  };

  return {
    register(job) {
      if (started) throw new Error(`job ${job.name}: register jobs before the runner starts`);
      if (jobs.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
      const state: JobState = {
        job,
        running: null,
        timer: null,
        stats: { name: job.name, runs: 0, failures: 0, skipped: 0, running: false, lastStartedAt: null, lastDurationMs: null, lastCounts: null, lastError: null },
      };
      jobs.set(job.name, state);
      if (deps.queue && job.intervalMs !== undefined) registerRecurring(deps.queue, state, job.intervalMs);
    },
    async start() {
      if (started) return;
      started = true;
      for (const state of jobs.values()) {
        if (state.job.runAtStart !== 'before-listen') continue;
        const outcome = await runOnce(state, stopping.signal);
        if (outcome.status === 'failed') throw outcome.error;
      }
      for (const state of jobs.values()) {
        if (state.job.intervalMs === undefined || !deps.queue) continue;
        await queueNextPeriod(state.job, state.job.intervalMs);
        deps.queue.wake();
      }
      // 'background': one run soon after this start, in this process (a sweep after a crash);
      // scheduled once start() has nothing left to wait for, so it runs after start() returns.
      for (const state of jobs.values()) if (state.job.runAtStart === 'background') schedule(state, 0);
    },
    async stop() {
      stopping.abort();
      for (const state of jobs.values()) {
        if (state.timer) clearTimeout(state.timer);
        state.timer = null;
      }
      await Promise.all([...jobs.values()].map((state) => state.running));
    },
    runNow(name, options = {}) {
      const state = jobs.get(name);
      if (!state) throw new Error(`no job named ${name}`);
      const signal = options.signal ? AbortSignal.any([options.signal, stopping.signal]) : stopping.signal;
      return runOnce(state, signal);
    },
    stats() {
      return [...jobs.values()].map((state) => ({ ...state.stats, lastCounts: state.stats.lastCounts && { ...state.stats.lastCounts } }));
    },
  };
}
