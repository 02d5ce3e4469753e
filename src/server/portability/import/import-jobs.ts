import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ImportJob } from '../../../shared/import-schema.js';
import type { BackgroundTasks } from '../../background/background-tasks.js';
import { ImportRefused } from './import-archive.js';
import type { ImportedPerson } from './imported-post.js';
import { runImport, type ImportDeps, type ImportReport } from './import.service.js';

/** How long a finished import's report stays to be read by the page that started it. */
const KEEP_FINISHED_MS = 60 * 60 * 1000;

export interface ImportUpload {
  /** The uploaded file, in a folder of its own that is removed when the import ends. */
  file: string;
  /** The name the moderator's file had, for messages (never a path of ours). */
  fileName: string;
  dryRun: boolean;
  /** Markdown files that name no author, and Ghost posts whose export names none, become this person's (the moderator). */
  owner: ImportedPerson;
}

/**
 * Imports started from the /import page, run in the background of this process and kept in
 * memory with their progress and report, so the page can poll. The import itself is the command
 * line's (`runImport`): the same reading, rules, transactions and report.
 */
export function createImportJobs(deps: ImportDeps & { background: BackgroundTasks; contentChanged: () => Promise<void> }) {
  const jobs = new Map<string, ImportJob & { finishedAt?: number }>();

  const forgetOld = () => {
    for (const [id, job] of jobs) if (job.finishedAt !== undefined && Date.now() - job.finishedAt > KEEP_FINISHED_MS) jobs.delete(id);
  };

  /** A refusal names the file by the moderator's name, not by our temporary path. */
  const refusal = (error: unknown, upload: ImportUpload) => {
    if (error instanceof ImportRefused) return { error: 'IMPORT_REFUSED', message: error.message.replaceAll(upload.file, upload.fileName) };
    deps.log.error({ err: error }, 'import failed');
    return { error: 'IMPORT_FAILED', message: 'The import stopped because of an error on the server; the posts written before it stay. See the server log.' };
  };

  return {
    /** The import that writes, if one is under way: two at once could both find a post new and write it twice. */
    writing(): ImportJob | undefined {
      return [...jobs.values()].find((job) => job.state === 'running' && !job.dryRun);
    },

    start(upload: ImportUpload): ImportJob {
      forgetOld();
      const job: ImportJob & { finishedAt?: number } = {
        id: randomUUID(),
        fileName: upload.fileName,
        dryRun: upload.dryRun,
        state: 'running',
        progress: null,
        report: null,
        error: null,
      };
      jobs.set(job.id, job);
      deps.background.run('import', async () => {
        try {
          const report: ImportReport = await runImport(deps, upload.file, {
            dryRun: upload.dryRun,
            owner: upload.owner,
            ownerNote: 'the moderator who imported it',
            onProgress: (progress) => {
              job.progress = progress;
            },
          });
          job.report = report;
          job.state = 'done';
        } catch (error) {
          job.error = refusal(error, upload);
          job.state = 'failed';
        } finally {
          job.finishedAt = Date.now();
          await rm(path.dirname(upload.file), { recursive: true, force: true });
          // Cached pages and lists may show what was imported (posts written before a failure too).
          if (!upload.dryRun) await deps.contentChanged();
        }
      });
      return { ...job };
    },

    get(id: string): ImportJob | undefined {
      const job = jobs.get(id);
      if (!job) return undefined;
      const { finishedAt: _, ...shown } = job;
      return shown;
    },
  };
}
