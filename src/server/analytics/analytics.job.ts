import type { Kysely } from 'kysely';
import { addDays } from '../../shared/analytics-schema.js';
import type { Database } from '../db/schema.js';
import type { AnalyticsBuffer } from './analytics-buffer.js';
import type { JobCounts, JobRunner } from '../jobs/job-runner.js';
import { deleteSaltsBefore, pruneRaw, rollUp, snapshotReaders } from './analytics.repository.js';

/** How often the daily figures are brought up to date (the dashboards read only them). */
export const ANALYTICS_ROLLUP_MS = 5 * 60_000;

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * How late a view may be written after its day ended: a process's flush period (at most a minute)
 * and its last flush at shutdown, with room to spare. Roll-ups this soon after midnight take
 * yesterday again.
 */
const LATE_VIEWS_MS = 10 * 60_000;

/** The daily figures up to today (from yesterday too just after midnight) and today's readers: the job's, and a dashboard's read of today. */
export async function rollUpToday(db: Kysely<Database>, now: Date, settings: { rawDays: number }) {
  const today = dayOf(now);
  const lateFrom = dayOf(new Date(now.getTime() - LATE_VIEWS_MS));
  const rolled = await rollUp(db, { today, keepFrom: addDays(today, -settings.rawDays), lateFrom });
  await snapshotReaders(db, today);
  return rolled;
}

/** How old today's figures on a dashboard may be (issue 59). */
export const TODAY_FRESH_MS = 60_000;

/**
 * Before a dashboard answers a range that holds today: this process's held views are written, and
 * today is rolled up again unless this process did so less than `TODAY_FRESH_MS - flushMs` ago.
 * Every other process writes its views every `flushMs`, so what the answer shows is at most a
 * minute old with any number of processes (the roll-up's table lock keeps two of them apart).
 * Reads that come together share one roll-up.
 */
export function todaysFigures(deps: { db: Kysely<Database>; now: () => Date; buffer: AnalyticsBuffer | null; flushMs: number; rawDays: number }) {
  const window = Math.max(0, TODAY_FRESH_MS - deps.flushMs);
  let rolledAt: number | undefined;
  let running: Promise<void> | undefined;
  return async function freshen(range: { to: string }): Promise<void> {
    const buffer = deps.buffer;
    if (!buffer) return;
    const now = deps.now();
    if (range.to < dayOf(now)) return;
    const at = now.getTime();
    if (rolledAt !== undefined && at >= rolledAt && at - rolledAt < window) return;
    running ??= (async () => {
      try {
        await buffer.flush();
        await rollUpToday(deps.db, now, deps);
        rolledAt = at;
      } finally {
        running = undefined;
      }
    })();
    await running;
  };
}

/**
 * The analytics' periodic work, one recurring job: the salts of days that are over are deleted,
 * the raw rows are rolled up into daily figures (today's again, so the dashboards are at most one
 * period behind), today's subscribers and followers are counted, and raw rows older than
 * `rawDays` are pruned.
 */
export function registerAnalyticsJob(jobs: JobRunner, deps: { db: Kysely<Database>; now: () => Date }, settings: { rawDays: number }) {
  jobs.register({
    name: 'analytics-rollup',
    runAtStart: 'background',
    intervalMs: ANALYTICS_ROLLUP_MS,
    run: async ({ signal }): Promise<JobCounts> => {
      const now = deps.now();
      const today = dayOf(now);
      const keepFrom = addDays(today, -settings.rawDays);
      const saltsDeleted = await deleteSaltsBefore(deps.db, today);
      if (signal.aborted) return { saltsDeleted };
      const rolled = await rollUpToday(deps.db, now, settings);
      if (signal.aborted) return { saltsDeleted, daysRolledUp: rolled.days };
      const pruned = await pruneRaw(deps.db, keepFrom);
      return { saltsDeleted, daysRolledUp: rolled.days, pruned };
    },
  });
}
