import { type Kysely, sql } from 'kysely';

/**
 * Imports started from the /import page, kept in the database (they were a map in the memory of
 * the process that ran them): their progress and report outlive a restart, and any process can
 * answer the page's questions about them. The import itself runs as a job of the durable queue.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_runs')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('file_path', 'text', (col) => col.notNull())
    .addColumn('dry_run', 'boolean', (col) => col.notNull())
    .addColumn('owner', 'jsonb', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('running').check(sql`state in ('running', 'done', 'failed')`))
    .addColumn('progress', 'jsonb')
    .addColumn('report', 'jsonb')
    .addColumn('error', 'jsonb')
    .addColumn('started_by', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // The one import that writes at a time: a second waits for the first's report.
  await sql`create unique index import_runs_one_writing on import_runs ((true)) where state = 'running' and not dry_run`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_runs').execute();
}
