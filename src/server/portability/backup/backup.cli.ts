/**
 * `npm run backup [-- --out <file.zip>]`: one archive of the database and the images (see
 * `writeBackup`). With Postgres it runs beside the servers (pg_dump takes a snapshot). With
 * PGlite, when the server is running it owns the database: this asks it (SIGUSR2, see
 * `answerBackupSignal`) to write the backup, waits for it and moves it to `--out`; when the
 * server is stopped, it opens the database itself.
 */
import { chmod, copyFile, readdir, rename, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../../config.js';
import { DataDirInUseError, PGLITE_LOCK_FILE } from '../../db/data-dir-lock.js';
import { PRIVATE_FILE_MODE } from '../../db/private-files.js';
import { openSiteDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createImageStorage } from '../../storage/storage.js';
import { UsageError, runCli } from '../../cli-support.js';
import { BACKUP_SIGNAL, serverBackupDir } from './backup-signal.js';
import { BackupError, writeBackup } from './backup.service.js';

const WAIT_MS = 30 * 60_000;

async function askRunningServer(config: Config, out: string): Promise<void> {
  const pid = Number.parseInt(readFileSync(path.join(config.dataDir, PGLITE_LOCK_FILE), 'utf8'), 10);
  const dir = serverBackupDir(config.dataDir);
  const before = new Set(await readdir(dir).catch(() => [] as string[]));
  console.error(`The server (process ${pid}) holds the database: asking it for the backup (${BACKUP_SIGNAL}).`);
  process.kill(pid, BACKUP_SIGNAL);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const made = (await readdir(dir).catch(() => [] as string[])).find((name) => name.endsWith('.zip') && !before.has(name));
    if (made) {
      const from = path.join(dir, made);
      try {
        await rename(from, out);
      } catch {
        await copyFile(from, out);
        await rm(from);
      }
      await chmod(out, PRIVATE_FILE_MODE);
      return;
    }
    if (Date.now() > deadline) throw new BackupError(`The server wrote no backup into ${dir} within ${WAIT_MS / 60_000} minutes; see its log.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function parseOptions(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true });
  const out = path.resolve(values.out ?? `backup-${new Date().toISOString().replace(/[:.]/g, '-')}.zip`);
  if (!out.endsWith('.zip')) throw new UsageError(`--out must name a .zip file (got ${JSON.stringify(values.out)})`);
  return { out };
}

async function main({ out }: { out: string }, config: Config): Promise<number> {
  let database;
  try {
    database = await openSiteDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    await askRunningServer(config, out);
    console.log(`wrote ${out} (by the running server)`);
    return 0;
  }
  try {
    await migrateToLatest(database.db);
    const manifest = await writeBackup({ config, database, storage: createImageStorage(config) }, out);
    console.log(`wrote ${out}: the ${manifest.database} database (${manifest.migrations.length} migrations) and ${manifest.images} image files`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli({ parse: parseOptions, run: main, expected: [BackupError] });
