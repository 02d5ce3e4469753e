import { BLOG_FEDERATE_JOB, federateActionFor, type BlogFederatePayload } from '../core/blog-federation.js';
import type { BlogEvents } from '../core/blog-events.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { enqueueJob, type JobQueue } from '../queue/job-queue.js';
import { countFollowers } from './federation.repository.js';
import { removeExpiredKv } from './kv-store.js';
import type { FederationDeps, SiteFederation } from './federation.js';
import { FEDERATION_MESSAGE_JOB } from './message-queue.js';

/**
 * Fedify and its JSON-LD processor are large: they are loaded by the first federation request or
 * job, never by the app's start or an ordinary request (`memory/loaded-packages.test.ts`).
 */
export type FederationLoader = () => Promise<SiteFederation>;

export function createFederationLoader(deps: FederationDeps): FederationLoader {
  let loading: Promise<SiteFederation> | undefined;
  return () => {
    loading ??= import('./federation.js').then((module) => {
      const site = module.createSiteFederation(deps);
      // Fedify's `listen` only keeps its handler: our queue's workers run the messages.
      void site.federation.startQueue(undefined);
      return site;
    });
    return loading;
  };
}

/**
 * The durable queue's two federation kinds: Fedify's own messages, and a blog's change to send. A
 * blog's change goes to its author's followers only, so for an author nobody follows (most of them,
 * on most sites) the job ends without loading Fedify: publishing stays as light as it was before
 * federation (measured, docs/memory.md: loading it for 100 posts kept about 15 MB).
 *
 * Federation hears the blogs' lifecycle (`core/blog-events.ts`): appearing to readers is a Create,
 * an edit while public an Update, disappearing (unpublished, hidden, the author suspended, deleted)
 * a Delete. An import's back catalogue is not sent. The job is keyed by the event: a retried event
 * sends nothing twice.
 */
export function registerFederationJobs(queue: JobQueue, blogEvents: BlogEvents, db: Kysely<Database>, load: FederationLoader): void {
  blogEvents.subscribe({
    name: 'federation',
    wants: (event) => event.origin !== 'import' && federateActionFor(event.wasPublic, event.isPublic) !== null,
    async handle(event) {
      const payload: BlogFederatePayload = { blogId: event.blogId, action: federateActionFor(event.wasPublic, event.isPublic)!, userId: event.userId, handle: event.handle };
      if (await enqueueJob(db, { kind: BLOG_FEDERATE_JOB, key: `${BLOG_FEDERATE_JOB}:${event.id}`, payload: { ...payload } })) queue.wake();
    },
  });
  queue.register<{ message: unknown }>({
    kind: FEDERATION_MESSAGE_JOB,
    // Deliveries and the fetches of received activities: other servers' time, on workers of their own.
    lane: 'remote',
    async run(job) {
      const site = await load();
      await site.handleMessage(job.payload.message);
    },
  });
  queue.register<BlogFederatePayload>({
    kind: BLOG_FEDERATE_JOB,
    lane: 'remote',
    async run(job) {
      if ((await countFollowers(db, job.payload.userId)) === 0) return;
      const site = await load();
      await site.federateBlog(job.payload);
    },
  });
}

/** Fedify's cached documents and keys expire; reads skip them, and this removes them hourly. */
export function registerFederationKvCleanup(jobs: JobRunner, db: Kysely<Database>): void {
  jobs.register({
    name: 'federation-kv-cleanup',
    intervalMs: 60 * 60_000,
    run: async () => ({ removed: await removeExpiredKv(db) }),
  });
}
