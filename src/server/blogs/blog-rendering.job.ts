import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { ImageStorage } from '../storage/storage.js';
import { renderUnrenderedBlogs } from './blog-rendering.service.js';

/** Blogs saved before Markdown was rendered on write get their HTML at start-up, before any request. */
export function registerBlogRenderingJob(jobs: JobRunner, deps: { db: Kysely<Database>; storage: Pick<ImageStorage, 'publicBaseUrl'> }): void {
  jobs.register({
    name: 'blog-rendering-backfill',
    runAtStart: 'before-listen',
    run: async ({ log }) => ({ rendered: await renderUnrenderedBlogs({ ...deps, log }) }),
  });
}
