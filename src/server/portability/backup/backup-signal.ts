import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { makePrivateDir } from '../../db/private-files.js';
import { writeBackup, type BackupDeps } from './backup.service.js';

/** Where a running server writes the backups `npm run backup` asks it for (PGlite: no other process may open the database). */
export function serverBackupDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

export const BACKUP_SIGNAL = 'SIGUSR2';

/**
 * A running server with PGlite owns its database; `npm run backup` asks it, with SIGUSR2, to
 * write the backup itself into `DATA_DIR/backups/` (the dump runs on the server's own connection,
 * between two statements, while requests go on). One backup at a time; a second signal during one is ignored.
 */
export function answerBackupSignal(deps: BackupDeps & { log: FastifyBaseLogger }): () => void {
  let running = false;
  const onSignal = () => {
    if (running) return;
    running = true;
    const dir = serverBackupDir(deps.config.dataDir);
    makePrivateDir(dir);
    const file = path.join(dir, `backup-${new Date().toISOString().replace(/[:.]/g, '-')}.zip`);
    deps.log.info({ file }, 'backup: asked by signal, writing');
    writeBackup(deps, file).then(
      (manifest) => deps.log.info({ file, images: manifest.images }, 'backup: written'),
      (err: unknown) => deps.log.error({ err }, 'backup: failed'),
    ).finally(() => {
      running = false;
    });
  };
  process.on(BACKUP_SIGNAL, onSignal);
  return () => process.off(BACKUP_SIGNAL, onSignal);
}
