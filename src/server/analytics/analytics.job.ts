import type { Kysely } from 'kysely';
import { addDays } from '../../shared/analytics-schema.js';
import type { Database } from '../db/schema.js';
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
      const lateFrom = dayOf(new Date(now.getTime() - LATE_VIEWS_MS));
      const keepFrom = addDays(today, -settings.rawDays);
      const saltsDeleted = await deleteSaltsBefore(deps.db, today);
      if (signal.aborted) return { saltsDeleted };
      const rolled = await rollUp(deps.db, { today, keepFrom, lateFrom });
      await snapshotReaders(deps.db, today);
      if (signal.aborted) return { saltsDeleted, daysRolledUp: rolled.days };
      const pruned = await pruneRaw(deps.db, keepFrom);
      return { saltsDeleted, daysRolledUp: rolled.days, pruned };
    },
  });
}
