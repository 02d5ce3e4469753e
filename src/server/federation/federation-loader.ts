import type { BlogFederatePayload } from '../core/blog-federation.js';
import { BLOG_FEDERATE_JOB } from '../core/blog-federation.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { JobQueue } from '../queue/job-queue.js';
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
 * The durable queue's two federation kinds: Fedify's own messages, and the blogs' hook. A blog's
 * change goes to its author's followers only, so for an author nobody follows (most of them, on
 * most sites) the hook's job ends without loading Fedify: publishing stays as light as it was
 * before federation (measured, docs/memory.md: loading it for 100 posts kept about 15 MB).
 */
export function registerFederationJobs(queue: JobQueue, db: Kysely<Database>, load: FederationLoader): void {
  queue.register<{ message: unknown }>({
    kind: FEDERATION_MESSAGE_JOB,
    async run(job) {
      const site = await load();
      await site.handleMessage(job.payload.message);
    },
  });
  queue.register<BlogFederatePayload>({
    kind: BLOG_FEDERATE_JOB,
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
