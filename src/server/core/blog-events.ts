import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { enqueueJobs, type JobQueue, type NewJob } from '../queue/job-queue.js';
import { selectBlogStates, selectAuthorBlogStates, type BlogState } from './blog-events.repository.js';

/**
 * A blog's lifecycle, decided in one place (docs/jobs.md, "Blog events").
 *
 * Every write that can change what readers see of a blog (create, edit, delete, a scheduled
 * publish, a moderator's hide and restore, an author's suspension and its end, an account's
 * deletion, an import) reads the blog's state before it writes and calls `recordBlogChanges` after,
 * inside its own transaction. The transition is computed here from the two states, and one durable
 * event per blog is queued in that transaction: the event exists exactly when the change commits,
 * and a process killed just after the commit loses none of it.
 *
 * The consumers (subscription mail, federation, the response cache; webhooks and analytics next)
 * subscribe with `BlogEvents.subscribe` and run from the `blog-event` job of the durable queue;
 * each is idempotent (what it starts is a job keyed by the event, or an invalidation), so a retried
 * event repeats nothing.
 */

export type BlogTransition = 'published' | 'unpublished' | 'edited' | 'deleted';

/** Who made the change: consumers may treat some differently (an import announces nothing). */
export type BlogChangeOrigin = 'author' | 'schedule' | 'moderator' | 'suspension' | 'account-deletion' | 'import';

export interface BlogEvent {
  /** The event's own id: consumers key what they start by it. */
  id: string;
  blogId: string;
  transition: BlogTransition;
  wasPublic: boolean;
  isPublic: boolean;
  /** The author, with their handle: enough for a Delete once the blog row is gone. */
  userId: string;
  handle: string;
  origin: BlogChangeOrigin;
  /** When the change was recorded (ISO). */
  at: string;
}

/** The columns that decide whether readers see a blog. */
export type BlogVisibility = Pick<BlogState, 'status' | 'hidden_at' | 'author_suspended_at'>;

/**
 * THE rule for a public blog, as `blogVisibleTo(null)` says it in SQL and `feeds_blog_public` in
 * the feeds' triggers: published, not hidden by a moderator, its author not suspended. A test
 * (`blog-events.test.ts`) checks the three agree on every combination.
 */
export function isPublicBlog(blog: BlogVisibility | null | undefined): boolean {
  return !!blog && blog.status === 'published' && blog.hidden_at === null && blog.author_suspended_at === null;
}

/**
 * The transition from `before` to `after` (null: the blog did not exist, or is gone). A deletion is
 * always an event (with `wasPublic` saying whether readers lost anything); a change that readers
 * could see neither before nor after (a draft saved) is none.
 */
export function blogTransition(before: BlogVisibility | null, after: BlogVisibility | null): BlogTransition | null {
  const wasPublic = isPublicBlog(before);
  const isPublic = isPublicBlog(after);
  if (before && !after) return 'deleted';
  if (wasPublic && isPublic) return 'edited';
  if (isPublic) return 'published';
  if (wasPublic) return 'unpublished';
  return null;
}

export const BLOG_EVENT_JOB = 'blog-event';

/** The states of some blogs before a write, read (and locked) in the writer's transaction. */
export async function blogStatesBefore(trx: Kysely<Database>, where: { blogIds: readonly string[] } | { authorId: string }): Promise<BlogState[]> {
  return 'authorId' in where ? selectAuthorBlogStates(trx, where.authorId) : selectBlogStates(trx, where.blogIds);
}

/**
 * After a write, in its transaction: compares each blog's state now with `before` and queues one
 * event for each that changed. `deleted`: these blogs are being deleted by this transaction (an
 * account's deletion calls this just before the rows go). Answers the events queued.
 */
export async function recordBlogChanges(
  trx: Kysely<Database>,
  change: { before: readonly (BlogState | null)[]; blogIds?: readonly string[]; origin: BlogChangeOrigin; deleted?: boolean },
): Promise<BlogEvent[]> {
  const ids = change.blogIds ?? change.before.map((state) => state?.id).filter((id): id is string => id !== undefined);
  const beforeById = new Map(change.before.filter((state): state is BlogState => state !== null).map((state) => [state.id, state]));
  const afterById = change.deleted ? new Map<string, BlogState>() : new Map((await selectBlogStates(trx, ids, { lock: false })).map((state) => [state.id, state]));
  const at = new Date().toISOString();
  const events: BlogEvent[] = [];
  for (const blogId of new Set(ids)) {
    const before = beforeById.get(blogId) ?? null;
    const after = afterById.get(blogId) ?? null;
    const transition = blogTransition(before, after);
    const author = after ?? before;
    if (!transition || !author) continue;
    events.push({
      id: randomUUID(),
      blogId,
      transition,
      wasPublic: isPublicBlog(before),
      isPublic: isPublicBlog(after),
      userId: author.user_id,
      handle: author.handle,
      origin: change.origin,
      at,
    });
  }
  await enqueueJobs(trx, events.map(eventJob));
  return events;
}

/** One blog's change: `before` is null for a blog just created. */
export function recordBlogChange(
  trx: Kysely<Database>,
  change: { blogId: string; before: BlogState | null; origin: BlogChangeOrigin; deleted?: boolean },
): Promise<BlogEvent[]> {
  return recordBlogChanges(trx, { before: [change.before], blogIds: [change.blogId], origin: change.origin, deleted: change.deleted });
}

/**
 * One blog's write with its event: reads (and locks) the state before, runs `write`, records the
 * change. `deleted`: the write deletes the blog (its event is recorded before, while the row is there).
 */
export async function recordingBlogChange<T>(
  trx: Kysely<Database>,
  change: { blogId: string; origin: BlogChangeOrigin; deleted?: boolean },
  write: () => Promise<T>,
): Promise<T> {
  const [before] = await blogStatesBefore(trx, { blogIds: [change.blogId] });
  if (change.deleted) await recordBlogChange(trx, { ...change, before: before ?? null });
  const result = await write();
  if (!change.deleted) await recordBlogChange(trx, { ...change, before: before ?? null });
  return result;
}

const eventJob = (event: BlogEvent): NewJob => ({ kind: BLOG_EVENT_JOB, key: `${BLOG_EVENT_JOB}:${event.id}`, payload: { ...event } });

export interface BlogEventConsumer {
  /** Kebab-case, for the logs. */
  name: string;
  /** The events it hears (all when unset). */
  wants?(event: BlogEvent): boolean;
  /** Must be idempotent: a failed event runs every consumer again. */
  handle(event: BlogEvent, context: { log: FastifyBaseLogger }): Promise<void>;
}

export interface BlogEvents {
  subscribe(consumer: BlogEventConsumer): void;
  /** The consumers, in the order they subscribed (docs and tests list them). */
  consumers(): readonly string[];
}

/**
 * The event job of the durable queue: each event runs every consumer that wants it, in turn; when
 * one fails, the others still run, and the event is retried (the queue's backoff) with all of them.
 */
export function createBlogEvents(queue: JobQueue): BlogEvents {
  const consumers: BlogEventConsumer[] = [];
  queue.register<BlogEvent & Record<string, unknown>>({
    kind: BLOG_EVENT_JOB,
    async run(job, { log }) {
      const event = job.payload;
      const failures: unknown[] = [];
      for (const consumer of consumers) {
        if (consumer.wants && !consumer.wants(event)) continue;
        try {
          await consumer.handle(event, { log: log.child({ consumer: consumer.name }) });
        } catch (error) {
          log.warn({ err: error, consumer: consumer.name, blogId: event.blogId, transition: event.transition }, 'blog event: a consumer failed');
          failures.push(error);
        }
      }
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new AggregateError(failures, `${failures.length} consumers of a blog event failed`);
    },
  });
  return {
    subscribe(consumer) {
      if (consumers.some((existing) => existing.name === consumer.name)) throw new Error(`blog event consumer ${consumer.name} subscribed twice`);
      consumers.push(consumer);
    },
    consumers: () => consumers.map((consumer) => consumer.name),
  };
}
