/**
 * `npm run restore -- <backup.zip>`: brings a backup back into an empty site (DATA_DIR without a
 * database, or a Postgres database with no tables, and no images in storage); refuses otherwise.
 * Run it with the server stopped, then start the server.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config.js';
import { DataDirInUseError } from '../../db/data-dir-lock.js';
import { createImageStorage } from '../../storage/storage.js';
import { UsageError } from '../../cli-support.js';
import { BackupError, restoreBackup } from './backup.service.js';

async function main(): Promise<number> {
  const { positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError('Usage: npm run restore -- <backup.zip>');
  const config = loadConfig();
  const manifest = await restoreBackup(config, createImageStorage(config), positionals[0]!);
  console.log(`restored the ${manifest.database} database of ${manifest.createdAt} and ${manifest.images} image files into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`);
  if (process.env.AUTH_SECRET) console.log('AUTH_SECRET is set: sessions of the backup stay valid only if it is the secret the backed-up site used.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const known = err instanceof ConfigError || err instanceof BackupError || err instanceof DataDirInUseError || err instanceof UsageError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    console.error(known || err instanceof Error ? (err as Error).message : err);
    if (!known && err instanceof Error && err.stack) console.error(err.stack);
    process.exit(1);
  },
);
