import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { brokenConstraint } from '../../db/database-errors.js';
import type { ImportedPerson } from './imported-post.js';

/** The index that lets one import write at a time (migration 2026-11-28-01). */
export const ONE_WRITING_INDEX = 'import_runs_one_writing';

export interface NewImportRun {
  id: string;
  fileName: string;
  filePath: string;
  dryRun: boolean;
  owner: ImportedPerson;
  startedBy: string;
}

/**
 * Records a run. A writing run while another writes breaks the one-writing index: the insert
 * throws, and `isAnotherWritingRun` says so (the caller's transaction is then rolled back).
 */
export async function insertImportRun(db: Kysely<Database>, run: NewImportRun): Promise<void> {
  // A run whose job ended without it (its process stopped during the job's last attempt) failed.
  await db
    .updateTable('import_runs')
    .set({ state: 'failed', error: JSON.stringify({ error: 'IMPORT_FAILED', message: 'The import stopped with its server, too often to be tried again; the posts written before it stay.' }), finished_at: new Date() })
    .where('state', '=', 'running')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('queued_jobs').select('id').whereRef('queued_jobs.key', '=', sql<string>`'import:' || import_runs.id`).where('queued_jobs.state', 'in', ['pending', 'running']))),
    )
    .execute();
  await db
    .insertInto('import_runs')
    .values({ id: run.id, file_name: run.fileName, file_path: run.filePath, dry_run: run.dryRun, owner: JSON.stringify(run.owner), started_by: run.startedBy })
    .execute();
}

/** The insert failed because another writing run is under way. */
export function isAnotherWritingRun(error: unknown): boolean {
  return brokenConstraint(error, 'unique') === ONE_WRITING_INDEX;
}

export function findImportRun(db: Kysely<Database>, id: string) {
  return db.selectFrom('import_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The import that writes, if one is under way. */
export function findWritingRun(db: Kysely<Database>) {
  return db.selectFrom('import_runs').select(['id', 'file_name']).where('state', '=', 'running').where('dry_run', '=', false).executeTakeFirst();
}

export async function saveImportProgress(db: Kysely<Database>, id: string, progress: { done: number; total: number } | null): Promise<void> {
  await db.updateTable('import_runs').set({ progress: progress && JSON.stringify(progress) }).where('id', '=', id).where('state', '=', 'running').execute();
}

export async function finishImportRun(
  db: Kysely<Database>,
  id: string,
  outcome: { state: 'done'; report: unknown } | { state: 'failed'; error: { error: string; message: string } },
): Promise<void> {
  await db
    .updateTable('import_runs')
    .set({
      state: outcome.state,
      report: outcome.state === 'done' ? JSON.stringify(outcome.report) : null,
      error: outcome.state === 'failed' ? JSON.stringify(outcome.error) : null,
      finished_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}
