import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.js';

/** The file naming the process that has the embedded database open. */
export const PGLITE_LOCK_FILE = 'pglite.pid';

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/**
 * PGlite is Postgres in this process: two processes opening one data folder would each write it
 * as their own and corrupt it. The first takes this lock (a file holding its process id); another
 * is refused with a clear message while that process lives. A lock left by a process that died
 * (`kill -9`, a power cut) is taken over. Returns the function that gives it back.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, PGLITE_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      return () => {
        if (holder(file) === process.pid) rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = holder(file);
    if (pid !== null && pid !== process.pid && isAlive(pid)) {
      throw new DataDirInUseError(
        `The embedded database in ${dataDir} is in use by process ${pid} (the server?). Stop it first, ` +
          `or, if no such process is this site's, remove ${file}.`,
      );
    }
    // Left by a process that is gone (or by this one): taken over.
    rmSync(file, { force: true });
  }
  throw new DataDirInUseError(`Could not lock the embedded database in ${dataDir}: another process took it at the same moment`);
}

function holder(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
