import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type yazl from 'yazl';
import { PRIVATE_FILE_MODE } from '../db/private-files.js';

/**
 * Ends `zip` and writes it to `outFile` for the owner alone (mode 0600, whatever the umask lets
 * others have): exports and backups hold drafts, e-mails, sessions and the auth secret. It is
 * written beside its final name and renamed once whole, so an archive cut off half way never
 * looks finished, and a failed one leaves nothing behind. Renaming replaces a file already at
 * `outFile` (an older export anyone could read) rather than writing into it.
 */
export async function writePrivateZip(zip: yazl.ZipFile, outFile: string): Promise<void> {
  const partial = `${outFile}.partial`;
  try {
    // A partial file left by a crash keeps its old mode if written into: start a new one.
    await rm(partial, { force: true });
    // yazl reports a source that fails (an image storage lost) on the zip, not on its output, which would wait for ever.
    zip.once('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(partial, { mode: PRIVATE_FILE_MODE, flags: 'wx' }));
    await rename(partial, outFile);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
