import type { Kysely } from 'kysely';
import { publishAtSchema, type BlogStatus } from '../../shared/blog-schema.js';
import type { Database } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { enqueueJob, type JobQueue, type NewJob } from '../queue/job-queue.js';
import { blogStatesBefore, recordBlogChange } from '../core/blog-events.js';
import { publishScheduledDraft } from './blogs.repository.js';

/**
 * Scheduled publishing: a draft with `publish_at` becomes public at that time through a job of
 * the durable queue, due then (`run_at`), so it happens once, within the queue's poll of its time,
 * across restarts and with any number of processes. Rescheduling queues a job for the new time
 * (its key names the time); a job whose time is no longer the blog's does nothing, so an
 * unscheduled or rescheduled blog is never published by an old job.
 */
export const PUBLISH_SCHEDULED_JOB = 'publish-scheduled';

export function publishScheduledJob(blogId: string, at: Date): NewJob {
  return { kind: PUBLISH_SCHEDULED_JOB, key: `${PUBLISH_SCHEDULED_JOB}:${blogId}:${at.toISOString()}`, payload: { blogId, publishAt: at.toISOString() }, runAt: at };
}

/** What the form's `publishAt` asks: undefined (keep), null (unschedule), or a time. */
export function parsePublishAt(value: string | undefined): Date | null | undefined {
  if (value === undefined) return undefined;
  const parsed = publishAtSchema.safeParse(value.trim());
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'The time to publish is not valid.');
  // Milliseconds, as the job's payload carries it, so the two compare equal in the database.
  return parsed.data === '' ? null : new Date(Date.parse(parsed.data));
}

/**
 * The status and schedule a write leaves: a time already past publishes at once; a time ahead
 * keeps (or makes) the blog a draft until then; publishing now clears any schedule.
 */
export function resolveSchedule(
  requested: { status?: BlogStatus; publishAt?: Date | null },
  current: { status: BlogStatus; publishAt: Date | null },
  now = new Date(),
): { status: BlogStatus; publishAt: Date | null } {
  if (requested.publishAt instanceof Date) {
    if (requested.status === 'published') throw badRequest('A blog is either published now or scheduled, not both.');
    if (current.status === 'published') throw badRequest('This blog is already published.');
    return requested.publishAt.getTime() <= now.getTime() ? { status: 'published', publishAt: null } : { status: 'draft', publishAt: requested.publishAt };
  }
  const status = requested.status ?? current.status;
  if (status === 'published' || requested.publishAt === null) return { status, publishAt: null };
  return { status, publishAt: current.publishAt };
}

/** Queues the job for a schedule just written (in the writer's transaction). */
export async function queueSchedule(trx: Kysely<Database>, blogId: string, publishAt: Date | null): Promise<void> {
  if (publishAt) await enqueueJob(trx, publishScheduledJob(blogId, publishAt));
}

/**
 * The job publishes the draft and records the change (`core/blog-events.ts`) in one transaction:
 * subscribers, followers and the caches hear of it from the blog's event, as from any other publish.
 */
export function registerScheduledPublishing(queue: JobQueue, deps: { db: Kysely<Database> }) {
  queue.register<{ blogId: string; publishAt: string }>({
    kind: PUBLISH_SCHEDULED_JOB,
    async run(job, { log }) {
      const { blogId } = job.payload;
      const published = await deps.db.transaction().execute(async (trx) => {
        const [before] = await blogStatesBefore(trx, { blogIds: [blogId] });
        if (!before || !(await publishScheduledDraft(trx, blogId, new Date(job.payload.publishAt)))) return false;
        await recordBlogChange(trx, { blogId, before, origin: 'schedule' });
        return true;
      });
      if (!published) {
        log.info({ blogId }, 'scheduled publish skipped: the blog was unscheduled, rescheduled, published or deleted');
        return;
      }
      log.info({ blogId }, 'scheduled blog published');
      queue.wake();
    },
  });
}
