/**
 * `npm run images:backfill`: the start-up backfill, run by hand (for instance with
 * IMAGE_BACKFILL_ON_START=false on a large site). With PGlite, stop the server first: an
 * embedded database has one process at a time. Logs one JSON line per event.
 */
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { openSiteDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createImageStorage } from '../storage/storage.js';
import { backfillImageVariants, type BackfillLog } from './backfill-image-variants.js';
import { runCli } from '../cli-support.js';

const line = (level: string) => (details: object, message: string) => {
  const error = 'err' in details && details.err instanceof Error ? { err: details.err.message } : {};
  console.log(JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...details, ...error }));
};
const log: BackfillLog = { info: line('info'), warn: line('warn'), error: line('error') };

async function main(_options: unknown, config: Config): Promise<number> {
  const database = await openSiteDatabase(config);
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  try {
    await migrateToLatest(database.db);
    const counts = await backfillImageVariants({ db: database.db, storage: createImageStorage(config), log }, { signal: stop.signal });
    log.info({ ...counts }, 'image variants: nothing left to do' + (counts.failed + counts.missing > 0 ? ' but the images above' : ''));
    return counts.failed > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

// It takes no arguments: any is a mistake, said before anything is opened.
runCli({ parse: (argv) => parseArgs({ args: argv, strict: true }), run: main });
