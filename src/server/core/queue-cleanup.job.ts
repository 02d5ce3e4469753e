import type { JobRunner } from '../jobs/job-runner.js';
import { BLOG_PUBLISHED_JOB } from './blog-published.js';
import type { JobQueue } from '../queue/job-queue.js';

export const QUEUE_CLEANUP_JOB = 'queue-cleanup';
/** Done jobs are kept this long (the moderators' counts, and their keys' memory against a repeat). */
export const DONE_JOBS_KEPT_DAYS = 30;

/**
 * Removes done jobs older than `DONE_JOBS_KEPT_DAYS`, hourly. `blog-published` rows stay for good:
 * their key is what keeps a blog from being announced twice (one small row a blog).
 */
export function registerQueueCleanupJob(jobs: JobRunner, queue: Pick<JobQueue, 'removeDone'>) {
  jobs.register({
    name: QUEUE_CLEANUP_JOB,
    runAtStart: 'background',
    intervalMs: 60 * 60_000,
    run: async () => ({ removed: await queue.removeDone({ olderThanDays: DONE_JOBS_KEPT_DAYS, keepKinds: [BLOG_PUBLISHED_JOB] }) }),
  });
}
