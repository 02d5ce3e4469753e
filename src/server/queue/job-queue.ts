import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database, QueuedJobState } from '../db/schema.js';

/**
 * The durable job queue: jobs are rows of `queued_jobs`, so a job queued in the same transaction
 * as the change it follows (a blog published) exists exactly when the change does, and survives
 * any stop of the process. Workers of any number of processes take due jobs with
 * `for update skip locked` and hold each for a lease; a job whose process died is taken again when
 * its lease runs out. A failed run is retried with exponential backoff until `max_attempts`, then
 * stays `failed` (the moderators' page shows it and can retry it). Each kind runs in a lane with
 * workers of its own (`JobLane`): mail, requests to other servers, and the rest. See docs/jobs.md.
 *
 * Why not pg-boss: PGlite has one connection, which Kysely's driver guards; pg-boss would run its
 * multi-statement SQL around that guard (inside our transactions), and jobs could no longer be
 * queued in the writer's own transaction. This is the `FOR UPDATE SKIP LOCKED` table DESIGN.md
 * names as the alternative, on the same Kysely as everything else.
 */

export interface QueuedJob<P = Record<string, unknown>> {
  id: string;
  kind: string;
  key: string;
  payload: P;
  /** This run's number, from 1. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Which workers run a kind (issue 56). Each lane has workers of its own, so one kind of work
 * cannot hold up another: `mail` is the messages people wait for at the screen (sign-in links,
 * codes, confirmations, resets); `remote` is requests to other servers on someone else's word
 * (webhooks, federation), where a dead target holds a worker for its whole timeout; `local` is
 * the rest (events, scheduled work, imports, newsletters).
 */
export type JobLane = 'mail' | 'remote' | 'local';
const LANES: readonly JobLane[] = ['mail', 'remote', 'local'];

/** Mail's workers: sends are paced by MAIL_SEND_PER_MINUTE anyway; two keep one slow SMTP answer from holding the rest. */
export const MAIL_LANE_WORKERS = 2;

export interface JobKind<P = Record<string, unknown>> {
  /** Unique, kebab-case. */
  kind: string;
  /** Its workers (unset: `local`). */
  lane?: JobLane;
  run(job: QueuedJob<P>, context: { signal: AbortSignal; log: FastifyBaseLogger }): Promise<void>;
}

/** Thrown by a job that must not be tried again (an address the mail server refuses for good). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface NewJob {
  kind: string;
  /** The idempotency key: a job with this key already queued (or done, and still kept) is not queued again. */
  key: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
}

export interface QueueOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** An idle worker looks for due jobs this often; `wake()` (a job queued here) looks at once. */
  pollMs: number;
  /**
   * Jobs of the `remote` lane and of the `local` lane each run at once by this process (and
   * `MAIL_LANE_WORKERS` of mail); 0: none at all.
   */
  concurrency?: number;
  /** How long a worker holds a job before another may take it (its process is presumed dead). */
  leaseMs?: number;
  /** The first retry's delay; each next one doubles it, up to an hour. */
  retryBaseMs?: number;
  /**
   * Only when no other process can be using the queue (PGlite): jobs found running at start are a
   * crash's, and run again at once instead of after their lease.
   */
  releaseRunningAtStart?: boolean;
  /** The clock that decides which jobs are due (tests move it; leases use the database's). */
  now?: () => Date;
}

export interface QueueOverview {
  counts: Record<QueuedJobState, number>;
  failed: Array<{ id: string; kind: string; state: QueuedJobState; attempts: number; lastError: string | null; runAt: Date; updatedAt: Date }>;
}

export interface JobQueue {
  register<P>(kind: JobKind<P>): void;
  /** Queues a job in `executor`'s transaction (or on its own); false when its key was already there. */
  enqueue(executor: Kysely<Database>, job: NewJob): Promise<boolean>;
  /** Looks for due jobs now (after this process queued some). */
  wake(): void;
  start(): Promise<void>;
  /** Takes no more jobs, and waits for those running to finish. */
  stop(): Promise<void>;
  overview(): Promise<QueueOverview>;
  /** A failed job runs again at once, with its attempts counted from zero; null when no failed job has the id. */
  retry(id: string): Promise<QueueOverview['failed'][number] | null>;
  /** Jobs running in this process now. */
  running(): number;
  /** Deletes done jobs last changed more than `olderThanDays` ago, but for `keepKinds`; returns how many. */
  removeDone(options: { olderThanDays: number; keepKinds: string[] }): Promise<number>;
}

const HOUR_MS = 60 * 60_000;

/**
 * A pending job is due when its `run_at` is before this. The clock has milliseconds and `run_at`
 * (the database's now()) microseconds: a job queued in the clock's current millisecond is due too.
 */
export function dueBefore(at: Date): Date {
  return new Date(at.getTime() + 1);
}

/**
 * Queues a job in `executor`'s transaction (or on its own): it exists exactly when what it follows
 * commits. False when a job of that key was already there (queued, done and kept, or failed).
 */
export async function enqueueJob(executor: Kysely<Database>, job: NewJob): Promise<boolean> {
  return (await enqueueJobs(executor, [job])) > 0;
}

/** Queues several jobs in one statement (as `enqueueJob` does one); answers how many were new. */
export async function enqueueJobs(executor: Kysely<Database>, jobs: readonly NewJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const result = await executor
    .insertInto('queued_jobs')
    .values(
      jobs.map((job) => ({
        kind: job.kind,
        key: job.key,
        payload: JSON.stringify(job.payload ?? {}),
        run_at: job.runAt ?? sql<Date>`now()`,
        ...(job.maxAttempts ? { max_attempts: job.maxAttempts } : {}),
      })),
    )
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export function createJobQueue(options: QueueOptions): JobQueue {
  const { db, log, pollMs } = options;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 10 * 60_000;
  const retryBaseMs = options.retryBaseMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const kinds = new Map<string, JobKind<never>>();
  const active = new Set<Promise<void>>();
  const workers: Record<JobLane, number> = { mail: concurrency > 0 ? MAIL_LANE_WORKERS : 0, remote: concurrency, local: concurrency };
  const laneRuns: Record<JobLane, Set<Promise<void>>> = { mail: new Set(), remote: new Set(), local: new Set() };
  const kindsOf = (lane: JobLane) => [...kinds.values()].filter((kind) => (kind.lane ?? 'local') === lane).map((kind) => kind.kind);
  const stopping = new AbortController();
  let started = false;
  let timer: NodeJS.Timeout | null = null;
  let claiming = false;
  let claimAgain = false;

  const claim = async (laneKinds: string[], limit: number): Promise<QueuedJob[]> => {
    const dueBy = dueBefore(now());
    const { rows } = await sql<{ id: string; kind: string; key: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }>`
      update queued_jobs
      set state = 'running', attempts = attempts + 1, locked_until = now() + ${leaseMs}::integer * interval '1 millisecond', updated_at = now()
      where id in (
        select id from queued_jobs
        where kind = any(${laneKinds}::text[])
          and ((state = 'pending' and run_at < ${dueBy}::timestamptz) or (state = 'running' and locked_until < now()))
        order by run_at, id
        limit ${limit}
        for update skip locked
      )
      returning id, kind, key, payload, attempts, max_attempts`.execute(db);
    return rows.map((row) => ({ id: String(row.id), kind: row.kind, key: row.key, payload: row.payload, attempt: row.attempts, maxAttempts: row.max_attempts }));
  };

  // The attempt number fences a stale worker: once a job was taken again, the old run's outcome is ignored.
  const finish = (job: QueuedJob) =>
    sql`update queued_jobs set state = 'done', payload = '{}'::jsonb, locked_until = null, last_error = null, updated_at = now()
        where id = ${job.id} and state = 'running' and attempts = ${job.attempt}`.execute(db);

  const fail = (job: QueuedJob, error: unknown) => {
    const message = String((error as Error)?.message ?? error).slice(0, 2000);
    const final = error instanceof PermanentJobError || job.attempt >= job.maxAttempts;
    const delayMs = Math.min(HOUR_MS, retryBaseMs * 2 ** (job.attempt - 1)) * (0.8 + Math.random() * 0.4);
    return sql`update queued_jobs
        set state = ${final ? 'failed' : 'pending'}, run_at = now() + ${Math.round(delayMs)}::integer * interval '1 millisecond',
            locked_until = null, last_error = ${message}, updated_at = now()
        where id = ${job.id} and state = 'running' and attempts = ${job.attempt}`.execute(db);
  };

  // A job that runs longer than a third of its lease (an import) keeps its lease alive, so no
  // other process takes it while this one lives; a process that dies stops renewing it.
  const renew = (job: QueuedJob) =>
    sql`update queued_jobs set locked_until = now() + ${leaseMs}::integer * interval '1 millisecond'
        where id = ${job.id} and state = 'running' and attempts = ${job.attempt}`.execute(db);

  const runJob = async (job: QueuedJob) => {
    const jobLog = log.child({ job: job.kind, jobId: job.id, attempt: job.attempt });
    const kind = kinds.get(job.kind)!;
    const heartbeat = setInterval(() => void renew(job).catch((err: unknown) => jobLog.warn({ err }, 'job queue: could not renew a lease')), Math.max(1000, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    try {
      // A run beyond the last attempt is one whose process stopped during the last: it is not tried again.
      if (job.attempt > job.maxAttempts) throw new PermanentJobError(`stopped during its last attempt (${job.maxAttempts})`);
      await kind.run(job as never, { signal: stopping.signal, log: jobLog });
      await finish(job);
    } catch (error) {
      const final = error instanceof PermanentJobError || job.attempt >= job.maxAttempts;
      jobLog[final ? 'error' : 'warn']({ err: error }, final ? 'queued job failed for good' : 'queued job failed; it will be retried');
      await fail(job, error).catch((err: unknown) => jobLog.error({ err }, 'could not record the failure; the lease will run out'));
    } finally {
      clearInterval(heartbeat);
    }
  };

  const launch = (lane: JobLane, job: QueuedJob) => {
    const run = runJob(job).finally(() => {
      active.delete(run);
      laneRuns[lane].delete(run);
      queue.wake();
    });
    active.add(run);
    laneRuns[lane].add(run);
  };

  const poll = async () => {
    if (!started || stopping.signal.aborted) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = true;
    try {
      do {
        claimAgain = false;
        // Mail first: a sign-in link is never behind a claim of other work.
        for (const lane of LANES) {
          const free = workers[lane] - laneRuns[lane].size;
          const laneKinds = kindsOf(lane);
          if (free <= 0 || laneKinds.length === 0 || stopping.signal.aborted) continue;
          const jobs = await claim(laneKinds, free);
          for (const job of jobs) launch(lane, job);
          // A full batch: there may be more.
          if (jobs.length === free) claimAgain = true;
        }
      } while (claimAgain && !stopping.signal.aborted);
    } catch (err) {
      log.error({ err }, 'job queue: could not take jobs; trying again at the next poll');
    } finally {
      claiming = false;
      schedule();
    }
  };

  const schedule = () => {
    if (timer) clearTimeout(timer);
    if (stopping.signal.aborted) return;
    timer = setTimeout(() => void poll(), pollMs);
    timer.unref();
  };

  const queue: JobQueue = {
    register(kind) {
      if (kinds.has(kind.kind)) throw new Error(`job kind ${kind.kind} is registered twice`);
      kinds.set(kind.kind, kind as JobKind<never>);
    },
    enqueue: enqueueJob,
    wake() {
      if (started) setImmediate(() => void poll());
    },
    async start() {
      if (started) return;
      if (options.releaseRunningAtStart) {
        const released = await db.updateTable('queued_jobs').set({ locked_until: sql<Date>`now() - interval '1 second'` }).where('state', '=', 'running').executeTakeFirst();
        if (released.numUpdatedRows > 0n) log.warn({ jobs: Number(released.numUpdatedRows) }, 'job queue: jobs left running by a stopped process run again');
      }
      started = true;
      void poll();
    },
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await Promise.all(active);
    },
    async overview() {
      const counts: Record<QueuedJobState, number> = { pending: 0, running: 0, done: 0, failed: 0 };
      const rows = await db.selectFrom('queued_jobs').select(['state', (eb) => eb.fn.countAll<string>().as('count')]).groupBy('state').execute();
      for (const row of rows) counts[row.state] = Number(row.count);
      const failed = await db
        .selectFrom('queued_jobs')
        .select(['id', 'kind', 'state', 'attempts', 'last_error', 'run_at', 'updated_at'])
        .where('state', '=', 'failed')
        .orderBy('updated_at', 'desc')
        .limit(50)
        .execute();
      return { counts, failed: failed.map(toOverviewJob) };
    },
    async retry(id) {
      if (!/^\d{1,18}$/.test(id)) return null;
      const row = await db
        .updateTable('queued_jobs')
        .set({ state: 'pending', attempts: 0, run_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where('id', '=', id as never)
        .where('state', '=', 'failed')
        .returning(['id', 'kind', 'state', 'attempts', 'last_error', 'run_at', 'updated_at'])
        .executeTakeFirst();
      if (row) queue.wake();
      return row ? toOverviewJob(row) : null;
    },
    running: () => active.size,
    async removeDone({ olderThanDays, keepKinds }) {
      const result = await db
        .deleteFrom('queued_jobs')
        .where('state', '=', 'done')
        .where('updated_at', '<', sql<Date>`now() - ${olderThanDays}::integer * interval '1 day'`)
        .where('kind', 'not in', keepKinds.length > 0 ? keepKinds : [''])
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
  return queue;
}

function toOverviewJob(row: { id: string; kind: string; state: QueuedJobState; attempts: number; last_error: string | null; run_at: Date; updated_at: Date }) {
  return { id: String(row.id), kind: row.kind, state: row.state, attempts: row.attempts, lastError: row.last_error, runAt: row.run_at, updatedAt: row.updated_at };
}
