import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { sweepUnclaimedInlineImages } from '../core/inline-images.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { ImageStorage } from '../storage/storage.js';
import { selectUnclaimedInlineImageKeys } from './storage-sweep.repository.js';
import { sweepStorage, type StorageSweepCounts, type StorageSweepOptions } from './storage-sweep.js';

export const STORAGE_SWEEP_JOB = 'storage-sweep';

export interface StorageSweepDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
}

export interface StorageSweepSettings {
  /** Files no row names are removed once older than this. */
  graceMs: number;
  /** Editor uploads no saved blog took are removed (row and files) once older than this. */
  inlineGraceMs: number;
}

export type OneSweepCounts = StorageSweepCounts & {
  /** Editor uploads no saved blog took within their grace period, removed with their files (rows). */
  unclaimedInlineImages: number;
};

/**
 * The one sweep of the image store: first the editor uploads no saved blog took (their rows and
 * files go together, see `sweepUnclaimedInlineImages`), then every stored file no row names.
 * In a dry run the first part only reports the uploads it would remove; their rows still name
 * their files, so the second part keeps them.
 */
export async function runOneSweep(
  deps: StorageSweepDeps & { log: FastifyBaseLogger },
  settings: StorageSweepSettings,
  options: Omit<StorageSweepOptions, 'graceMs'> & { onUnclaimedInlineImage?: (key: string) => void } = {},
): Promise<OneSweepCounts> {
  let unclaimedInlineImages: number;
  if (options.dryRun) {
    const keys = await selectUnclaimedInlineImageKeys(deps.db, new Date((options.now?.() ?? new Date()).getTime() - settings.inlineGraceMs));
    keys.forEach((key) => options.onUnclaimedInlineImage?.(key));
    unclaimedInlineImages = keys.length;
  } else {
    unclaimedInlineImages = await sweepUnclaimedInlineImages(deps, {
      graceMs: settings.inlineGraceMs,
      now: options.now?.(),
      signal: options.signal,
      onRemoved: options.onUnclaimedInlineImage,
    });
  }
  const files = options.signal?.aborted ? emptyCounts() : await sweepStorage(deps, { ...options, graceMs: settings.graceMs });
  return { unclaimedInlineImages, ...files };
}

/** Registers the sweep: once soon after start-up (finishing one a restart cut off), then every `intervalMs`. */
export function registerStorageSweepJob(jobs: JobRunner, deps: StorageSweepDeps, settings: StorageSweepSettings & { intervalMs: number }): void {
  jobs.register({
    name: STORAGE_SWEEP_JOB,
    runAtStart: 'background',
    intervalMs: settings.intervalMs,
    run: async ({ signal, log }) => ({ ...(await runOneSweep({ ...deps, log }, settings, { signal })) }),
  });
}


function emptyCounts(): StorageSweepCounts {
  return { listed: 0, kept: 0, keptInGrace: 0, removed: 0, bytesFreed: 0, failed: 0 };
}
