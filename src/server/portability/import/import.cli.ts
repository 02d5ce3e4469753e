/**
 * `npm run import -- <file|folder|zip> [--dry-run] [--owner <e-mail>] [--source-url <url>]`:
 * imports a Ghost export (JSON, or its zip with `content/images`), a WordPress export (WXR
 * `.xml`, or a zip with `wp-content/uploads`), or a folder or zip of Markdown files. Prints one
 * line per post, then the report. Exit 0 when every post was imported (or had been before) or
 * skipped for a reason the report gives (pages, attachments, other types); 1 when the file was
 * refused (nothing written) or some posts could not be imported (the rest were written).
 * With PGlite the server must be stopped first (one process owns DATA_DIR); use the /import page
 * while it runs.
 */
import { parseArgs } from 'node:util';
import type { Config } from '../../config.js';
import { openSiteDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createImageStorage } from '../../storage/storage.js';
import { stderrLogger, UsageError, runCli } from '../../cli-support.js';
import { ImportRefused } from './import-archive.js';
import type { PostError } from './imported-post.js';
import { personOf } from './imported-post.js';
import { formatImportReport } from './import-report.js';
import { runImport } from './import.service.js';

function parseOptions(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { 'dry-run': { type: 'boolean' }, owner: { type: 'string' }, 'source-url': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('Usage: npm run import -- <export.json|export.xml|export.zip|folder> [--dry-run] [--owner <e-mail>] [--source-url <url>]');
  let owner;
  try {
    owner = values.owner === undefined ? undefined : personOf(values.owner, undefined, '--owner');
  } catch (error) {
    throw new UsageError(`--owner: ${(error as PostError).message}`);
  }
  return { file: positionals[0]!, dryRun: values['dry-run'] ?? false, owner, sourceUrl: values['source-url'] };
}

type ImportCliOptions = ReturnType<typeof parseOptions>;

async function main(options: ImportCliOptions, config: Config): Promise<number> {
  const database = await openSiteDatabase(config);
  try {
    await migrateToLatest(database.db);
    const report = await runImport({ db: database.db, storage: createImageStorage(config), log: stderrLogger() }, options.file, {
      ...options,
      onLine: (line) => console.log(line),
    });
    console.log(formatImportReport(report));
    return report.posts.failed > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

runCli({ parse: parseOptions, run: main, expected: [ImportRefused] });
