import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../../db/private-files.js';

export interface SpillRef {
  offset: number;
  length: number;
}

/**
 * Texts kept on disk, not in memory, between two passes over an export, and read back one at a
 * time by reference: a Ghost export's Markdown and comments come after its posts, and held whole
 * they would be as large as the posts themselves. The file is its user's alone (drafts) and is
 * removed on `close`.
 */
export class SpillFile {
  private size = 0;
  private constructor(
    private readonly dir: string,
    private readonly fd: number,
  ) {}

  static create(): SpillFile {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'import-spill-'));
    return new SpillFile(dir, openSync(path.join(dir, 'spill'), 'w+', PRIVATE_FILE_MODE));
  }

  append(text: string): SpillRef {
    const bytes = Buffer.from(text, 'utf8');
    writeSync(this.fd, bytes, 0, bytes.length, this.size);
    const ref = { offset: this.size, length: bytes.length };
    this.size += bytes.length;
    return ref;
  }

  read(ref: SpillRef): string {
    const bytes = Buffer.alloc(ref.length);
    let done = 0;
    while (done < ref.length) {
      const read = readSync(this.fd, bytes, done, ref.length - done, ref.offset + done);
      if (read === 0) throw new Error('the import\'s temporary file ended early');
      done += read;
    }
    return bytes.toString('utf8');
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
