import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { PRIVATE_FILE_MODE } from '../db/private-files.js';

/**
 * A zip whose output fails when one of its sources does. yazl reports a source that fails (an
 * image storage lost) on the zip, not on its output stream, which would then wait for ever; and
 * it reads each source as soon as the entries before it are written, so the failure can come at
 * any moment after the entry is added: heard from the start, or it is an uncaught exception
 * that ends the process.
 */
export function newZip(): yazl.ZipFile {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  zip.once('error', (error: Error) => output.destroy(error));
  // A failure before anyone reads the output stays on it (`errored`), for the pipeline or the
  // reader that comes later, instead of being an 'error' event no one hears.
  output.on('error', () => {});
  return zip;
}

/**
 * Ends `zip` (made by `newZip`) and writes it to `outFile` for the owner alone (mode 0600, whatever the umask lets
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
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(partial, { mode: PRIVATE_FILE_MODE, flags: 'wx' }));
    await rename(partial, outFile);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
