import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-dirs.js';
import { newZip, writePrivateZip } from './private-zip.js';

describe('writePrivateZip (exports and backups)', () => {
  const tmp = tempDir('private-zip-');
  afterAll(() => tmp.remove());

  it('is its owner\'s alone, also over an old export and a partial one a crash left readable by all', async () => {
    const out = path.join(tmp.dir, 'site.zip');
    writeFileSync(out, 'old', { mode: 0o644 });
    writeFileSync(`${out}.partial`, 'cut off', { mode: 0o644 });
    const zip = newZip();
    zip.addBuffer(Buffer.from('a draft'), 'draft.md');
    await writePrivateZip(zip, out);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(tmp.dir)).toEqual(['site.zip']);
  });

  it('leaves nothing behind when the archive fails half way', async () => {
    const out = path.join(tmp.dir, 'failed.zip');
    const zip = newZip();
    zip.addBuffer(Buffer.from('x'.repeat(100_000)), 'first.md');
    // As the export and the backup read an image: storage failed, after the zip had begun.
    zip.addReadStreamLazy('image.webp', (callback) => setImmediate(() => callback(new Error('storage went away'), Readable.from([]))));
    await expect(writePrivateZip(zip, out)).rejects.toThrow('storage went away');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('hears a source that fails before the zip is written (yazl reads each as soon as the entries before it are out)', async () => {
    const out = path.join(tmp.dir, 'early.zip');
    const zip = newZip();
    zip.addReadStreamLazy('image.webp', (callback) => callback(new Error('storage went away'), Readable.from([])));
    // The export and the backup still read the database here, with the source already failed.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(writePrivateZip(zip, out)).rejects.toThrow('storage went away');
    expect(existsSync(out)).toBe(false);
  });

  it('fails a streamed zip (my data) when a source fails, instead of waiting for ever', async () => {
    const zip = newZip();
    zip.addBuffer(Buffer.from('a comment'), 'comments.json');
    zip.addReadStreamLazy('images/a.webp', (callback) => setImmediate(() => callback(new Error('storage went away'), Readable.from([]))));
    zip.end();
    await expect(async () => {
      for await (const chunk of zip.outputStream) void chunk;
    }).rejects.toThrow('storage went away');
  });
});
