/**
 * `npm run export [-- --out <file.zip>]`: the whole site as one zip Ghost's importer accepts
 * (see `writeSiteExport`), by default `blogging-site-export-<date>.zip` in the current folder.
 * With PGlite the server must be stopped first (one process owns DATA_DIR).
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import type { Config } from '../../config.js';
import { openSiteDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createImageStorage } from '../../storage/storage.js';
import { UsageError, runCli } from '../../cli-support.js';
import { writeSiteExport } from './site-export.service.js';

function parseOptions(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true });
  const out = path.resolve(values.out ?? `blogging-site-export-${new Date().toISOString().slice(0, 10)}.zip`);
  if (!out.endsWith('.zip')) throw new UsageError(`--out must name a .zip file (got ${JSON.stringify(values.out)})`);
  return { out };
}

async function main({ out }: { out: string }, config: Config): Promise<number> {
  const database = await openSiteDatabase(config);
  try {
    await migrateToLatest(database.db);
    const summary = await writeSiteExport({ db: database.db, storage: createImageStorage(config) }, out);
    console.log(`wrote ${out}: ${summary.posts} posts, ${summary.users} authors, ${summary.tags} tags, ${summary.comments} comments, ${summary.images} images`);
    if (summary.missingImages.length) console.log(`images the database names but storage lacks (written empty):\n  ${summary.missingImages.join('\n  ')}`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli({ parse: parseOptions, run: main });
