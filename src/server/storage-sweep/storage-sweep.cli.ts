/**
 * `npm run storage:sweep [-- --dry-run] [-- --grace-minutes N]`: the server's storage sweep, run
 * once by hand. Prints each object it removes (or, with `--dry-run`, would remove, changing
 * nothing), then the counts. Takes the same lock as the servers' sweep, so on Postgres it can run
 * beside them. With PGlite the server must be stopped first: an embedded database has one
 * process at a time, and this refuses to start (exit 1) while the server holds DATA_DIR.
 */
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { openSiteDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createJobRunner } from '../jobs/job-runner.js';
import { createImageStorage } from '../storage/storage.js';
import { runOneSweep, STORAGE_SWEEP_JOB, type OneSweepCounts } from './storage-sweep.job.js';
import { stderrLogger, UsageError, runCli } from '../cli-support.js';

function parseOptions(argv: string[]): { dryRun: boolean; graceMinutes?: number } {
  const { values } = parseArgs({ args: argv, options: { 'dry-run': { type: 'boolean' }, 'grace-minutes': { type: 'string' } }, strict: true });
  const grace = values['grace-minutes'];
  if (grace !== undefined && !/^\d+$/.test(grace)) throw new UsageError(`--grace-minutes must be a whole number of minutes (got ${JSON.stringify(grace)})`);
  return { dryRun: values['dry-run'] ?? false, graceMinutes: grace === undefined ? undefined : Number(grace) };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

async function main(options: ReturnType<typeof parseOptions>, config: Config): Promise<number> {
  const graceMs = options.graceMinutes === undefined ? config.storageSweep.graceMs : options.graceMinutes * 60_000;
  const database = await openSiteDatabase(config);
  try {
    await migrateToLatest(database.db);
    const log = stderrLogger();
    const jobs = createJobRunner({ database, log });
    const verb = options.dryRun ? 'would remove' : 'removed';
    let counts: OneSweepCounts | undefined;
    jobs.register({
      name: STORAGE_SWEEP_JOB,
      run: async ({ signal }) => {
        counts = await runOneSweep(
          { db: database.db, storage: createImageStorage(config), log },
          { graceMs, inlineGraceMs: config.inlineImages.graceMs },
          {
            dryRun: options.dryRun,
            signal,
            onRemoved: (object) => console.log(`${verb}\t${object.key}\t${object.size} bytes\t(modified ${object.modifiedAt.toISOString()})`),
            onUnclaimedInlineImage: (key) => console.log(`${verb}\t${key}\t(editor upload no saved blog took, with its row and variants)`),
          },
        );
        return { ...counts };
      },
    });
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    const outcome = await jobs.runNow(STORAGE_SWEEP_JOB, { signal: stop.signal });
    if (outcome.status === 'skipped') {
      console.error('Another process is sweeping the image store right now; nothing was done. Try again when it has finished.');
      return 2;
    }
    if (outcome.status === 'failed') throw outcome.error;
    const c = counts!;
    console.log(
      `${options.dryRun ? 'dry run, nothing changed: ' : ''}listed ${c.listed} files under blogs/; kept ${c.kept} ` +
        `(${c.keptInGrace} inside the grace period of ${graceMs / 60_000} min); ${verb} ${c.removed} (${megabytes(c.bytesFreed)}) ` +
        `and ${c.unclaimedInlineImages} unclaimed editor uploads; ${c.failed} could not be removed`,
    );
    return c.failed > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

runCli({ parse: parseOptions, run: main });
