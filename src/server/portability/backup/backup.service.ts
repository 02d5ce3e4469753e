import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import { openSiteDatabase, type DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { PRIVATE_FILE_MODE } from '../../db/private-files.js';
import { isValidImageKey } from '../../storage/image-key.js';
import { IMAGE_KEY_PREFIX, type ImageStorage } from '../../storage/storage.js';
import { DEFAULT_ARCHIVE_LIMITS, ImportRefused, openImportArchive, readCapped } from '../import/import-archive.js';
import { newZip, writePrivateZip } from '../private-zip.js';
import { findPgTool, runPgTool } from './pg-tools.js';

export const BACKUP_FORMAT = 'blogging-site-backup';
const MANIFEST = 'backup.json';
const PGLITE_DUMP = 'database/pglite.tar.gz';
const POSTGRES_DUMP = 'database/postgres.dump';
const AUTH_SECRET = 'auth-secret';
const IMAGES = 'images/';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  database: 'pglite' | 'postgres';
  /** The migrations the database had: a restore into an older server is refused. */
  migrations: string[];
  images: number;
}

export interface BackupDeps {
  config: Config;
  database: DatabaseHandle;
  storage: ImageStorage;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

/**
 * One archive (a zip) of the database and the images. The database comes first and whole:
 * PGlite's own `dumpDataDir` (it runs between two statements of the one connection, so it is
 * one consistent state of the cluster) or `pg_dump` (one snapshot transaction). Then every object
 * of the image store under `blogs/` (local disk or S3 alike, through the storage interface).
 * A blog written while the images are copied may have its image in the archive without its row
 * (harmless: the sweep removes it after a restore); an image is never removed before its row is
 * (deletes commit first), but a blog deleted during the copy may leave its row in the dump without
 * its image: restore reports nothing for it, and its page shows no picture. `auth-secret` is
 * included when DATA_DIR has one: restored sessions need the secret that signed their cookies.
 */
export async function writeBackup(deps: BackupDeps, outFile: string, now = new Date()): Promise<BackupManifest> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'backup-'));
  try {
    const zip = newZip();
    const migrations = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(deps.database.db)).rows.map((row) => row.name);
    if (deps.database.kind === 'pglite') {
      const dump = await deps.database.dump!();
      const file = path.join(work, 'pglite.tar.gz');
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
      zip.addFile(file, PGLITE_DUMP, { compress: false });
    } else {
      const pgDump = await findPgTool('pg_dump');
      if (!pgDump) throw new BackupError('pg_dump was not found (PATH, /usr/lib/postgresql/*/bin): install the PostgreSQL client of the server\'s version, or back the server up with its own tools (see docs/portability.md).');
      const file = path.join(work, 'postgres.dump');
      await runPgTool(pgDump, ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${deps.database.url ?? deps.config.databaseUrl}`]);
      zip.addFile(file, POSTGRES_DUMP, { compress: false });
    }
    const secretFile = path.join(deps.config.dataDir, AUTH_SECRET);
    if (existsSync(secretFile)) zip.addBuffer(readFileSync(secretFile), AUTH_SECRET, { mode: 0o100600 });
    let images = 0;
    for await (const page of deps.storage.list(IMAGE_KEY_PREFIX)) {
      for (const object of page) {
        // Leftover temporary files of interrupted writes are not images.
        if (!isValidImageKey(object.key)) continue;
        images += 1;
        zip.addReadStreamLazy(`${IMAGES}${object.key}`, { compress: false }, (callback) => {
          deps.storage.get(object.key).then(
            (data) => callback(null, Readable.from([data ?? Buffer.alloc(0)])),
            (err: unknown) => callback(err, Readable.from([])),
          );
        });
      }
    }
    const manifest: BackupManifest = { format: BACKUP_FORMAT, version: 1, createdAt: now.toISOString(), database: deps.database.kind, migrations, images };
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), MANIFEST);
    await writePrivateZip(zip, outFile);
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Brings a backup back into an empty site: DATA_DIR without a database (PGlite) or a database
 * with no tables (Postgres), and an image store with nothing under `blogs/`. Refuses anything
 * else, so a restore can never overwrite a live site. Migrations newer than the backup's run
 * afterwards, as at any start.
 */
export async function restoreBackup(config: Config, storage: ImageStorage, archiveFile: string): Promise<BackupManifest> {
  const archive = await openImportArchive(archiveFile, { ...DEFAULT_ARCHIVE_LIMITS, maxRatio: 1000 }).catch((error: unknown) => {
    throw new BackupError(error instanceof ImportRefused ? error.message : `${archiveFile}: ${(error as Error).message}`);
  });
  try {
    if (!archive.has(MANIFEST)) throw new BackupError(`${path.basename(archiveFile)} is not a backup of this site (no ${MANIFEST}).`);
    const manifest = JSON.parse((await archive.read(MANIFEST, 1024 * 1024)).toString('utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1) throw new BackupError(`${path.basename(archiveFile)} is not a backup this version can read.`);
    const kind = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== kind) {
      throw new BackupError(`The backup holds a ${manifest.database} database, but this configuration uses ${kind} (${kind === 'postgres' ? 'DATABASE_URL is set' : 'DATABASE_URL is unset'}); restore into the same kind (moving between them: npm run export / import).`);
    }
    for await (const page of storage.list(IMAGE_KEY_PREFIX, { pageSize: 1 })) {
      if (page.length > 0) throw new BackupError(`The image store already holds images (${page[0]!.key}); restore only into an empty site.`);
    }
    const work = await mkdtemp(path.join(os.tmpdir(), 'restore-'));
    try {
      let database: DatabaseHandle;
      if (kind === 'pglite') {
        if (existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'))) throw new BackupError(`${config.dataDir} already holds a database; restore only into an empty DATA_DIR.`);
        const dump = await readCapped(await archive.open(PGLITE_DUMP), PGLITE_DUMP);
        database = await openSiteDatabase(config, { loadDataDir: new Blob([new Uint8Array(dump)], { type: 'application/x-gzip' }) });
      } else {
        database = await openSiteDatabase(config);
        const tables = await sql<{ count: string }>`select count(*) as count from information_schema.tables where table_schema = 'public'`.execute(database.db);
        if (Number(tables.rows[0]!.count) > 0) {
          await database.close();
          throw new BackupError('The database already has tables; restore only into an empty database.');
        }
        const pgRestore = await findPgTool('pg_restore');
        if (!pgRestore) {
          await database.close();
          throw new BackupError('pg_restore was not found (PATH, /usr/lib/postgresql/*/bin); install the PostgreSQL client.');
        }
        const file = path.join(work, 'postgres.dump');
        await writeFile(file, await readCapped(await archive.open(POSTGRES_DUMP), POSTGRES_DUMP));
        await runPgTool(pgRestore, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${config.databaseUrl}`, file]);
      }
      try {
        await migrateToLatest(database.db);
      } finally {
        await database.close();
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    for (const name of archive.names) {
      if (!name.startsWith(IMAGES)) continue;
      const key = name.slice(IMAGES.length);
      if (!isValidImageKey(key)) continue;
      await storage.put(key, await readCapped(await archive.open(name), name), 'image/webp');
    }
    if (archive.has(AUTH_SECRET)) {
      await writeFile(path.join(config.dataDir, AUTH_SECRET), await archive.read(AUTH_SECRET, 4096), { mode: PRIVATE_FILE_MODE });
      await chmod(path.join(config.dataDir, AUTH_SECRET), PRIVATE_FILE_MODE);
    }
    return manifest;
  } finally {
    archive.close();
  }
}
