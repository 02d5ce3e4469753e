import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { archiveName, DEFAULT_ARCHIVE_LIMITS } from './import-archive.js';
import { runImport } from './import.service.js';
import { MAX_TEXT_BYTES } from './text-cap.js';
import { FIXTURES, useImportSite, useTempDir, writeZip } from '../../testing/import-test-support.js';

const WXR = readFileSync(path.join(FIXTURES, 'wordpress-site/theme-unit-test-data.xml'), 'utf8');

describe('imports refused as a whole, with nothing written', () => {
  const site = useImportSite();
  const tmp = useTempDir('hostile-import-');
  // Registered after the site's: runs before it is closed.
  afterAll(async () => {
    // Every test below left the site as it found it.
    expect(await site.deps.db.selectFrom('blogs').select('id').execute()).toEqual([]);
    expect(await site.deps.db.selectFrom('user').select('id').execute()).toEqual([]);
    expect(await site.deps.db.selectFrom('imported_items').select('source').execute()).toEqual([]);
  });

  const file = (name: string, content: string | Buffer) => {
    const full = path.join(tmp.dir, name);
    writeFileSync(full, content);
    return full;
  };

  it('an XML entity bomb (billion laughs)', async () => {
    const lol = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`)].join('\n');
    const bomb = file('bomb.xml', `<?xml version="1.0"?>\n<!DOCTYPE rss [\n${lol}\n]>\n<rss><channel><item><title>&lol9;</title></item></channel></rss>`);
    await expect(runImport(site.deps, bomb)).rejects.toThrow(
      /^bomb\.xml, line \d+: the file declares a DTD \(<!DOCTYPE …>\); a WordPress export has none, and entity declarations \(entity bombs, external entities\) are refused; nothing was imported\.$/,
    );
  });

  it('an external entity (XXE)', async () => {
    const xxe = file('xxe.xml', `<?xml version="1.0"?>\n<!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<rss><channel><item><title>&xxe;</title></item></channel></rss>`);
    await expect(runImport(site.deps, xxe)).rejects.toThrow(/xxe\.xml, line 2: the file declares a DTD/);
  });

  it('a malformed WXR file, even when its good posts come first', async () => {
    const cut = file('cut.xml', WXR.slice(0, WXR.lastIndexOf('<item>')) + '<item><title>half</title></chan');
    await expect(runImport(site.deps, cut)).rejects.toThrow(/cut\.xml, line \d+: not well-formed XML/);
  });

  // Each text is gathered whole before it is converted: one over the cap is refused before it is, so a
  // 190 MB upload of one post cannot take a 512 MB machine down (text-cap.ts).
  it('a file holding a text longer than any post (16 MB): Ghost JSON, and WXR as text or as CDATA', async () => {
    const huge = 'x'.repeat(MAX_TEXT_BYTES + 1);
    const ghost = file('huge.json', `{"db":[{"data":{"posts":[{"id":"1","title":"t","html":"${huge}"}],"users":[]}}]}`);
    await expect(runImport(site.deps, ghost)).rejects.toThrow('huge.json holds a text longer than 16 MB (no post is); nothing was imported.');
    const item = WXR.indexOf('<content:encoded>');
    const cdata = file('huge-cdata.xml', `${WXR.slice(0, item)}<content:encoded><![CDATA[${huge}]]></content:encoded>${WXR.slice(item)}`);
    await expect(runImport(site.deps, cdata)).rejects.toThrow(/^huge-cdata\.xml, line \d+: a text, tag or CDATA section longer than 16 MB \(no post holds one\); nothing was imported\.$/);
    const pieces = file('huge-pieces.xml', `${WXR.slice(0, item)}<content:encoded>${`<![CDATA[${'x'.repeat(1 << 20)}]]>`.repeat(17)}</content:encoded>${WXR.slice(item)}`);
    await expect(runImport(site.deps, pieces)).rejects.toThrow(/^huge-pieces\.xml, line \d+: <content:encoded> holds a text longer than 16 MB \(no post does\); nothing was imported\.$/);
  });

  it('a zip bomb: more unpacked bytes than the limit, or an entry compressed far beyond any real file', async () => {
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    const bomb = path.join(tmp.dir, 'bomb.zip');
    await writeZip(bomb, { 'ghost.json': '{}', 'content/images/zeros.jpg': zeros });
    await expect(runImport(site.deps, bomb)).rejects.toThrow(
      /bomb\.zip: the entry "content\/images\/zeros\.jpg" is compressed \d+ to 1, over the limit of 200 to 1; refused as a possible zip bomb\. Nothing was imported\./,
    );
    const stored = path.join(tmp.dir, 'big.zip');
    await writeZip(stored, { 'a.md': 'x', 'b.bin': zeros }, { compress: false });
    await expect(runImport(site.deps, stored, { limits: { ...DEFAULT_ARCHIVE_LIMITS, maxTotalBytes: 4 * 1024 * 1024 } })).rejects.toThrow(
      /big\.zip: its entries unpack to more than 4194304 bytes; refused as a possible zip bomb/,
    );
  });

  it('a zip entry whose path leaves the archive (../../x)', async () => {
    const zip = path.join(tmp.dir, 'traversal.zip');
    // yazl refuses to write such a name, as it should: write a same-length one and patch it.
    await writeZip(zip, { 'post.md': '---\ntitle: x\n---\nbody', 'aa/aa/x': 'owned' });
    const bytes = readFileSync(zip);
    writeFileSync(zip, Buffer.from(bytes.toString('latin1').replaceAll('aa/aa/x', '../../x'), 'latin1'));
    await expect(runImport(site.deps, zip, { owner: { email: 'a@example.com', name: 'a' } })).rejects.toThrow(
      'traversal.zip: the entry "../../x" names a path outside the archive (path traversal); refused. Nothing was imported.',
    );
  });

  it('a file that is no zip, and a folder with nothing to import', async () => {
    await expect(runImport(site.deps, file('fake.zip', 'not a zip at all'))).rejects.toThrow(/fake\.zip is not a readable zip/);
    await expect(runImport(site.deps, file('notes.txt', 'hello'))).rejects.toThrow(/notes\.txt: no Ghost export \(\.json\), WordPress export \(\.xml\) or Markdown files/);
  });

  it('names inside an archive never leave it', () => {
    expect(['../x', 'a/../../x', '/etc/passwd', 'C:/x', 'a\\..\\x', 'a/./b', './c'].map(archiveName)).toEqual([undefined, undefined, undefined, undefined, undefined, 'a/b', 'c']);
  });
});
