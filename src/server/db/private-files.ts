import { chmodSync, mkdirSync } from 'node:fs';

/**
 * Everything under DATA_DIR (the database with its WAL, uploads, the mail outbox, the auth
 * secret) is for the server's own user only: the WAL holds live reset tokens in clear text.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** What `process.umask` is set to at start, so files written by libraries (PGlite) are private too. */
export const PRIVATE_UMASK = 0o077;

/** Creates the folder (and its parents) readable by the owner only, and tightens it if it already existed. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}
