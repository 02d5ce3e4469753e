import { defineFeature } from '../feature.js';
import { registerStorageSweepJob } from './storage-sweep.job.js';

/** The sweep of stored files no row names any more. */
export const storageSweepFeature = defineFeature({
  name: 'storage-sweep',
  jobs: ({ jobs, deps }) => registerStorageSweepJob(jobs, { db: deps.db, storage: deps.storage }, { ...deps.config.storageSweep, inlineGraceMs: deps.config.inlineImages.graceMs }),
});
