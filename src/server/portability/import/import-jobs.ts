import { rm } from 'node:fs/promises';
import path from 'node:path';
import { EVERYTHING_TAG } from '../../../shared/cache-tags.js';
import type { ImportJob } from '../../../shared/import-schema.js';
import type { ContentChanges } from '../../cache/content-changes.js';
import { enqueueJob, type JobQueue } from '../../queue/job-queue.js';
import { ImportRefused } from './import-archive.js';
import type { ImportedPerson } from './imported-post.js';
import { runImport, type ImportDeps } from './import.service.js';
import { findImportRun, findWritingRun, finishImportRun, insertImportRun, isAnotherWritingRun, saveImportProgress } from './import-runs.repository.js';

export const IMPORT_JOB = 'import';

/** The import's progress is written at most this often (a post takes a few milliseconds). */
const PROGRESS_EVERY_MS = 1000;

export interface ImportUpload {
  /** The run's id; the uploaded file is in `DATA_DIR/imports/<id>/`, removed when the import ends. */
  id: string;
  file: string;
  /** The name the moderator's file had, for messages (never a path of ours). */
  fileName: string;
  dryRun: boolean;
  /** Markdown files that name no author, and Ghost posts whose export names none, become this person's (the moderator). */
  owner: ImportedPerson;
  startedBy: string;
}

/** Answered when a writing import is asked for while another writes (two could both find a post new). */
export class ImportRunning extends Error {
  constructor(readonly fileName: string) {
    super(`The import of ${fileName} is still running.`);
  }
}

/**
 * Imports started from the /import page run as jobs of the durable queue (docs/jobs.md): the run's
 * row holds its progress and report, so the page can poll any process, and they outlive a restart.
 * The job is the command line's import (`runImport`): the same reading, rules, transactions and
 * report. A process that dies mid-import leaves the job to be taken again (at once on PGlite, when
 * its lease runs out on Postgres): the import runs again from its file, and what it had written is
 * found unchanged. One writing import at a time, across processes (a unique index); a dry run may
 * run beside it.
 */
export function registerImportJob(queue: JobQueue, deps: ImportDeps & { contentChanges: ContentChanges }): void {
  queue.register<{ runId: string }>({
    kind: IMPORT_JOB,
    async run(job, { log }) {
      const run = await findImportRun(deps.db, job.payload.runId);
      if (!run || run.state !== 'running') return;
      let lastWrite = 0;
      let progressWrite = Promise.resolve();
      let outcome: Parameters<typeof finishImportRun>[2];
      try {
        const report = await runImport({ ...deps, log }, run.file_path, {
          dryRun: run.dry_run,
          owner: run.owner,
          ownerNote: 'the moderator who imported it',
          onProgress: (progress) => {
            if (Date.now() - lastWrite < PROGRESS_EVERY_MS && progress.done < progress.total) return;
            lastWrite = Date.now();
            progressWrite = progressWrite.then(() => saveImportProgress(deps.db, run.id, progress)).catch((err: unknown) => log.warn({ err }, 'import: could not save its progress'));
          },
        });
        outcome = { state: 'done', report };
      } catch (error) {
        outcome = { state: 'failed', error: refusal(error, run, log) };
      }
      // The file goes before the run says it ended: an ended run has nothing left on disk.
      await progressWrite;
      await rm(path.dirname(run.file_path), { recursive: true, force: true });
      await finishImportRun(deps.db, run.id, outcome);
      // Cached pages may show what was imported (posts written before a failure too): comments, accounts.
      if (!run.dry_run) await deps.contentChanges.changed([EVERYTHING_TAG]);
    },
  });
}

/** A refusal names the file by the moderator's name, not by our path. */
function refusal(error: unknown, run: { file_path: string; file_name: string }, log: ImportDeps['log']) {
  if (error instanceof ImportRefused) return { error: 'IMPORT_REFUSED', message: error.message.replaceAll(run.file_path, run.file_name) };
  log.error({ err: error }, 'import failed');
  return { error: 'IMPORT_FAILED', message: 'The import stopped because of an error on the server; the posts written before it stay. See the server log.' };
}

/** Records the run and queues its job; throws `ImportRunning` when a writing import is under way. */
export async function startImport(deps: Pick<ImportDeps, 'db'> & { queue: JobQueue }, upload: ImportUpload): Promise<ImportJob> {
  try {
    await deps.db.transaction().execute(async (trx) => {
      await insertImportRun(trx, { id: upload.id, fileName: upload.fileName, filePath: upload.file, dryRun: upload.dryRun, owner: upload.owner, startedBy: upload.startedBy });
      await enqueueJob(trx, { kind: IMPORT_JOB, key: `${IMPORT_JOB}:${upload.id}`, payload: { runId: upload.id }, maxAttempts: 3 });
    });
  } catch (error) {
    if (!isAnotherWritingRun(error)) throw error;
    throw new ImportRunning((await findWritingRun(deps.db))?.file_name ?? 'another file');
  }
  deps.queue.wake();
  return { id: upload.id, fileName: upload.fileName, dryRun: upload.dryRun, state: 'running', progress: null, report: null, error: null };
}

/** The import as the page sees it; undefined for no such run. */
export async function findImport(deps: Pick<ImportDeps, 'db'>, id: string): Promise<ImportJob | undefined> {
  const run = await findImportRun(deps.db, id);
  if (!run) return undefined;
  return { id: run.id, fileName: run.file_name, dryRun: run.dry_run, state: run.state, progress: run.progress, report: run.report as ImportJob['report'], error: run.error };
}

/** The import that writes, if one is under way. */
export async function writingImport(deps: Pick<ImportDeps, 'db'>): Promise<{ fileName: string } | undefined> {
  const run = await findWritingRun(deps.db);
  return run && { fileName: run.file_name };
}
