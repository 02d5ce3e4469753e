import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { ImageStorage } from '../storage/storage.js';
import { backfillImageVariants } from './backfill-image-variants.js';
import type { ContentChanges } from '../cache/content-changes.js';

/**
 * Images stored before variants existed get them, in the background once the server starts
 * (older images keep working, without srcset, meanwhile). Off with IMAGE_BACKFILL_ON_START=false
 * (then `npm run images:backfill` does it).
 */
export function registerImageVariantsJob(
  jobs: JobRunner,
  deps: { db: Kysely<Database>; storage: ImageStorage; contentChanges: ContentChanges },
  settings: { onStart: boolean },
): void {
  if (!settings.onStart) return;
  jobs.register({
    name: 'image-variants-backfill',
    runAtStart: 'background',
    run: async ({ log, signal }) => ({ ...(await backfillImageVariants({ ...deps, log }, { signal })) }),
  });
}
