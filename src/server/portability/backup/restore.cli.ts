/**
 * `npm run restore -- <backup.zip>`: brings a backup back into an empty site (DATA_DIR without a
 * database, or a Postgres database with no tables, and no images in storage); refuses otherwise.
 * Run it with the server stopped, then start the server.
 */
import { parseArgs } from 'node:util';
import type { Config } from '../../config.js';
import { createImageStorage } from '../../storage/storage.js';
import { UsageError, runCli } from '../../cli-support.js';
import { BackupError, restoreBackup } from './backup.service.js';

function parseOptions(argv: string[]) {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError('Usage: npm run restore -- <backup.zip>');
  return { backup: positionals[0]! };
}

async function main({ backup }: { backup: string }, config: Config): Promise<number> {
  const manifest = await restoreBackup(config, createImageStorage(config), backup);
  console.log(`restored the ${manifest.database} database of ${manifest.createdAt} and ${manifest.images} image files into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`);
  if (process.env.AUTH_SECRET) console.log('AUTH_SECRET is set: sessions of the backup stay valid only if it is the secret the backed-up site used.');
  return 0;
}

runCli({ parse: parseOptions, run: main, expected: [BackupError] });
