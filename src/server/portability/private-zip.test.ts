import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { tempDir } from '../testing/temp-dirs.js';
import { writePrivateZip } from './private-zip.js';

describe('writePrivateZip (exports and backups)', () => {
  const tmp = tempDir('private-zip-');
  afterAll(() => tmp.remove());

  it('is its owner\'s alone, also over an old export and a partial one a crash left readable by all', async () => {
    const out = path.join(tmp.dir, 'site.zip');
    writeFileSync(out, 'old', { mode: 0o644 });
    writeFileSync(`${out}.partial`, 'cut off', { mode: 0o644 });
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('a draft'), 'draft.md');
    await writePrivateZip(zip, out);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(tmp.dir)).toEqual(['site.zip']);
  });

  it('leaves nothing behind when the archive fails half way', async () => {
    const out = path.join(tmp.dir, 'failed.zip');
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('x'.repeat(100_000)), 'first.md');
    // As the export and the backup read an image: storage failed, after the zip had begun.
    zip.addReadStreamLazy('image.webp', (callback) => setImmediate(() => callback(new Error('storage went away'), Readable.from([]))));
    await expect(writePrivateZip(zip, out)).rejects.toThrow('storage went away');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});
