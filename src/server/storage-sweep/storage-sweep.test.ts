import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allImageKeys } from '../images/stored-image.js';
import { localUploadsDir } from '../storage/local-storage.js';
import { createImageStorage, IMAGE_KEY_PREFIX, newImageKey, type ImageStorage, type StoredObject } from '../storage/storage.js';
import { startS3TestServer, type S3TestServer } from '../testing/s3-test-server.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { solidPng } from '../testing/image-fixtures.js';
import { postBlog } from '../testing/test-blogs.js';
import { signUpUser, type TestUser } from '../testing/test-users.js';
import { runOneSweep } from './storage-sweep.job.js';
import { sweepStorage } from './storage-sweep.js';

const HOUR_MS = 3_600_000;

async function listAll(storage: ImageStorage): Promise<StoredObject[]> {
  const all: StoredObject[] = [];
  // Small pages: the sweep and the listing go on past a full page.
  for await (const page of storage.list(IMAGE_KEY_PREFIX, { pageSize: 3 })) all.push(...page);
  return all.sort((a, b) => a.key.localeCompare(b.key));
}
const keysOf = async (storage: ImageStorage) => (await listAll(storage)).map((object) => object.key);

/** Everything the rows name: blogs' covers and editor uploads, each with all its variants. */
async function namedKeys(t: TestApp): Promise<string[]> {
  const covers = await t.database.db.selectFrom('blogs').select('image_key').where('image_key', 'is not', null).execute();
  const inline = await t.database.db.selectFrom('inline_images').select('key').execute();
  return [...covers.map((row) => row.image_key!), ...inline.map((row) => row.key)].flatMap(allImageKeys).sort();
}

async function uploadInline(t: TestApp, user: TestUser): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(await solidPng(600, 300))], { type: 'image/png' }), 'inline.png');
  const encoded = new Response(form);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/blog-images',
    headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie, 'content-type': encoded.headers.get('content-type')! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { url: string }).url.replace(/^.*?(blogs\/)/, '$1');
}

/** What a crash leaves: a cover image and its variants whose row never committed. */
async function plantOrphanImage(storage: ImageStorage, userId: string): Promise<string[]> {
  const key = newImageKey('crashed.png', userId);
  const keys = allImageKeys(key);
  await Promise.all(keys.map((each) => storage.put(each, randomBytes(500), 'image/webp')));
  return keys;
}

/**
 * The same checks on every store: a blog with a cover (and its variants), an editor upload no
 * blog took yet (its row names it), and orphans: an image with its variants whose row never
 * committed, and a variant width no image has.
 */
function sweepsAStore(name: string, makeApp: () => Promise<TestApp>, extraOrphans: (t: TestApp) => Promise<string[]> = async () => []) {
  describe(`the storage sweep, ${name}`, () => {
    let t: TestApp;
    let storage: ImageStorage;
    let user: TestUser;
    beforeAll(async () => {
      t = await makeApp();
      storage = createImageStorage(t.config);
      user = await signUpUser(t.app);
    });
    afterAll(() => t?.close());
    const deps = () => ({ db: t.database.db, storage, log: t.app.log });

    it('removes every file no row names once past the grace period (covers, variants, leftovers) and keeps every named one', async () => {
      const blog = await postBlog(t.app, user, { title: 'Kept', blog: 'text' }, await solidPng(1000, 600));
      const unclaimed = await uploadInline(t, user);
      const named = await namedKeys(t);
      expect(named).toContain(unclaimed);
      const cover = blog.image!.url.replace(/^.*?(blogs\/)/, '$1');
      expect(named).toEqual(expect.arrayContaining(allImageKeys(cover)));
      // A variant width no image has, beside a named image: named by no row.
      const unknownVariant = cover.replace(/\.webp$/, '-w123.webp');
      await storage.put(unknownVariant, randomBytes(10), 'image/webp');
      const lone = newImageKey('lone.png', user.id);
      await storage.put(lone, randomBytes(700), 'image/webp');
      const orphans = [...(await plantOrphanImage(storage, user.id)), lone, unknownVariant, ...(await extraOrphans(t))];
      const before = await listAll(storage);
      expect(before.map((object) => object.key)).toEqual(expect.arrayContaining([...allImageKeys(cover), unclaimed, ...orphans]));

      const removed: string[] = [];
      const counts = await runOneSweep(deps(), { graceMs: 0, inlineGraceMs: 24 * HOUR_MS }, { pageSize: 3, onRemoved: (object) => removed.push(object.key) });

      expect(removed.sort()).toEqual([...orphans].sort());
      const after = await keysOf(storage);
      expect(after).toEqual(before.map((object) => object.key).filter((key) => !orphans.includes(key)));
      expect(after.every((key) => named.includes(key))).toBe(true);
      const freed = before.filter((object) => orphans.includes(object.key)).reduce((sum, object) => sum + object.size, 0);
      expect(counts).toEqual({
        unclaimedInlineImages: 0,
        listed: before.length,
        kept: before.length - orphans.length,
        keptInGrace: 0,
        removed: orphans.length,
        bytesFreed: freed,
        failed: 0,
      });
      // Every named file still loads.
      for (const key of after) expect((await storage.get(key))?.length, key).toBeGreaterThan(0);
      // A second sweep finds nothing to do.
      expect((await sweepStorage(deps(), { graceMs: 0 })).removed).toBe(0);
    });

    it('keeps a file no row names while it is inside the grace period', async () => {
      const orphans = await plantOrphanImage(storage, user.id);
      const young = await sweepStorage(deps(), { graceMs: HOUR_MS });
      expect(young).toMatchObject({ removed: 0, keptInGrace: young.listed });
      expect(await keysOf(storage)).toEqual(expect.arrayContaining(orphans));
      // Two hours on, the same files are past it.
      const later = await sweepStorage(deps(), { graceMs: HOUR_MS, now: () => new Date(Date.now() + 2 * HOUR_MS) });
      expect(later.removed).toBe(orphans.length);
      expect(await keysOf(storage)).not.toEqual(expect.arrayContaining([orphans[0]]));
    });

    it('a dry run reports what would go and changes nothing, editor uploads past their grace included', async () => {
      const orphans = await plantOrphanImage(storage, user.id);
      const stale = await uploadInline(t, user);
      await t.database.db.updateTable('inline_images').set({ created_at: new Date(Date.now() - 2 * 24 * HOUR_MS) }).where('key', '=', stale).execute();
      const before = await listAll(storage);
      const rowsBefore = await namedKeys(t);
      const reported: string[] = [];
      const counts = await runOneSweep(
        deps(),
        { graceMs: 0, inlineGraceMs: 24 * HOUR_MS },
        { dryRun: true, onRemoved: (object) => reported.push(object.key), onUnclaimedInlineImage: (key) => reported.push(key) },
      );
      expect(reported.sort()).toEqual([...orphans, stale].sort());
      expect(counts).toMatchObject({ unclaimedInlineImages: 1, removed: orphans.length });
      expect(await listAll(storage)).toEqual(before);
      expect(await namedKeys(t)).toEqual(rowsBefore);
      // The real run removes exactly what the dry run reported, the editor upload with its row and variants.
      const real = await runOneSweep(deps(), { graceMs: 0, inlineGraceMs: 24 * HOUR_MS });
      expect(real).toMatchObject({ unclaimedInlineImages: 1, removed: orphans.length });
      expect(await keysOf(storage)).toEqual(before.map((o) => o.key).filter((key) => !orphans.includes(key) && !allImageKeys(stale).includes(key)));
    });

    it('asks the database after listing: a row committed while the sweep runs keeps its file', async () => {
      const [adopted] = await plantOrphanImage(storage, user.id);
      const [stillOrphan] = await plantOrphanImage(storage, user.id);
      let pages = 0;
      const counts = await sweepStorage(deps(), {
        graceMs: 0,
        pageSize: 1000,
        // Between the listing and the database check, an upload's row commits.
        afterListing: async (page) => {
          pages++;
          if (page.some((object) => object.key === adopted)) {
            await t.database.db.insertInto('blogs').values({ user_id: user.id, title: 'Committed mid-sweep', body: 'x', image_key: adopted! }).execute();
          }
        },
      });
      expect(pages).toBeGreaterThan(0);
      const after = await keysOf(storage);
      expect(after).toContain(adopted);
      expect(after).not.toContain(stillOrphan);
      expect(counts.removed).toBe(4);
    });
  });
}

sweepsAStore('on local disk', () => createTestApp(), async (t) => {
  // Half-written files of a put cut off by a crash, never renamed into place.
  const folder = path.join(localUploadsDir(t.config), 'blogs');
  const tmp = '.photo-u1-1-abcd.webp.0a1b2c3d4e5f.tmp';
  await writeFile(path.join(folder, tmp), randomBytes(300));
  return [`blogs/${tmp}`];
});

describe('the storage sweep against S3', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3TestServer();
  });
  afterAll(() => server?.close());
  sweepsAStore('in an S3 bucket', () => createTestApp(server.env));
});

describe('the storage sweep never leaves the store', () => {
  let t: TestApp;
  let outside: string;
  beforeAll(async () => {
    t = await createTestApp();
    outside = await mkdtemp(path.join(os.tmpdir(), 'outside-store-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(outside, { recursive: true, force: true });
  });

  it('neither follows nor removes a symbolic link to a file or a folder outside, and refuses keys that climb out', async () => {
    const storage = createImageStorage(t.config);
    const folder = path.join(localUploadsDir(t.config), 'blogs');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(outside, 'victim.webp'), 'must survive');
    await mkdir(path.join(outside, 'dir'));
    await writeFile(path.join(outside, 'dir', 'victim.webp'), 'must survive too');
    await symlink(path.join(outside, 'victim.webp'), path.join(folder, 'link-u1-1-abcd.webp'));
    await symlink(path.join(outside, 'dir'), path.join(folder, 'linked-dir'));
    await writeFile(path.join(localUploadsDir(t.config), 'not-ours.txt'), 'outside the images prefix');

    const counts = await sweepStorage({ db: t.database.db, storage, log: t.app.log }, { graceMs: 0 });
    expect(counts.listed).toBe(0);
    expect(await readFile(path.join(outside, 'victim.webp'), 'utf8')).toBe('must survive');
    expect(await readFile(path.join(outside, 'dir', 'victim.webp'), 'utf8')).toBe('must survive too');
    expect(existsSync(path.join(localUploadsDir(t.config), 'not-ours.txt'))).toBe(true);

    await expect(storage.removeListed('blogs/linked-dir/victim.webp')).rejects.toThrow(/non-folder/);
    await expect(storage.removeListed('blogs/link-u1-1-abcd.webp')).rejects.toThrow(/not a plain file/);
    for (const key of ['blogs/../not-ours.txt', '../x', '/etc/passwd', 'blogs/./x', 'blogs\\..\\x', '']) {
      await expect(storage.removeListed(key), key).rejects.toThrow(/Invalid stored key/);
    }
    expect(await readFile(path.join(outside, 'dir', 'victim.webp'), 'utf8')).toBe('must survive too');
    // A listing prefix of `..` is refused too.
    expect(() => storage.list('../')).toThrow(/Invalid listing prefix/);
    // And an old file next to them that no row names still goes: the sweep is not simply off.
    await writeFile(path.join(folder, 'old-u1-1-abcd.webp'), 'x');
    await utimes(path.join(folder, 'old-u1-1-abcd.webp'), new Date(0), new Date(0));
    expect((await sweepStorage({ db: t.database.db, storage, log: t.app.log }, { graceMs: HOUR_MS })).removed).toBe(1);
  });
});
