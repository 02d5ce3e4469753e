import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { allImageKeys } from '../images/stored-image.js';
import { createLocalImageStorage } from '../storage/local-storage.js';
import { newImageKey } from '../storage/storage.js';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../testing/server-process.js';

/** Every plain file under the uploads folder, as store keys (`blogs/…`). */
function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'uploads');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** What the rows name: every blog's cover and every editor upload, with all their variants. */
async function namedFiles(dataDir: string): Promise<{ named: Set<string>; blogIds: string[] }> {
  const database = await openDatabase({ dataDir });
  try {
    const blogs = await database.db.selectFrom('blogs').select(['id', 'image_key']).execute();
    const inline = await database.db.selectFrom('inline_images').select('key').execute();
    const keys = [...blogs.flatMap((blog) => (blog.image_key ? [blog.image_key] : [])), ...inline.map((row) => row.key)];
    return { named: new Set(keys.flatMap(allImageKeys)), blogIds: blogs.map((blog) => blog.id) };
  } finally {
    await database.close();
  }
}

/** A 1600 x 1000 photo-like JPEG: noise takes sharp real time to re-encode, so uploads overlap. */
const noisyCover = () =>
  sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg({ quality: 70 })
    .toBuffer();

async function signUp(base: string, i: number): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `writer-${i}@example.com`, password: 'correct horse battery', name: `writer ${i}` }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
}

async function postBlog(base: string, cookie: string, title: string, cover: Buffer): Promise<{ id: string } | null> {
  const form = new FormData();
  form.append('title', title);
  form.append('blog', 'written as the server died');
  form.append('image', new Blob([new Uint8Array(cover)], { type: 'image/jpeg' }), 'cover.jpg');
  try {
    const response = await fetch(`${base}/api/blogs`, { method: 'POST', headers: { origin: base, cookie }, body: form });
    return response.status === 201 ? ((await response.json()) as { id: string }) : null;
  } catch {
    return null; // the connection died with the server: not acknowledged
  }
}

describe('the storage sweep after a crash', () => {
  it('after kill -9 during 20 uploads and a restart, a sweep with no grace leaves no file that no row names, and every acknowledged blog keeps its image and variants', async () => {
    const dataDir = migratedDataDir('blog-crash-');
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const env = { PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir, AUTH_REQUIRE_EMAIL_VERIFICATION: 'false', RATE_LIMIT_SCALE: '100' };
    const first = startServer(env);
    await waitForHealth(port);
    const cookies: string[] = [];
    for (let i = 0; i < 20; i += 5) cookies.push(...(await Promise.all([0, 1, 2, 3, 4].map((j) => signUp(base, i + j)))));
    const cover = await noisyCover();

    // 20 writers at the same moment; the server is killed as soon as the first three are acknowledged.
    const acknowledged: string[] = [];
    let killed = false;
    const uploads = cookies.map(async (cookie, i) => {
      const blog = await postBlog(base, cookie, `Crash ${i}`, cover);
      if (blog && !killed) acknowledged.push(blog.id);
      if (acknowledged.length >= 3 && !killed) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    });
    await Promise.all(uploads);
    if (!killed) first.child.kill('SIGKILL');
    expect(await first.exited).toBe(null);
    expect(acknowledged.length).toBeGreaterThanOrEqual(3);

    // What the crash left, plus a planted orphan of each kind, so the sweep always has work.
    const storage = createLocalImageStorage(path.join(dataDir, 'uploads'));
    const planted = allImageKeys(newImageKey('planted.png', 'writer'));
    for (const key of planted) await storage.put(key, Buffer.from('orphan'), 'image/webp');
    const tmp = `blogs/.${newImageKey('half.png', 'writer').slice('blogs/'.length)}.0a1b2c3d4e5f.tmp`;
    await writeFile(path.join(dataDir, 'uploads', tmp), 'half-written');
    const before = await namedFiles(dataDir);
    const orphansBefore = storedFiles(dataDir).filter((key) => !before.named.has(key));
    expect(orphansBefore).toEqual(expect.arrayContaining([...planted, tmp]));
    console.log(`after kill -9: ${acknowledged.length} acknowledged, ${before.blogIds.length} blogs, ${orphansBefore.length - planted.length - 1} files no row names`);

    // Restarted with no grace period: the sweep that runs at start-up removes every orphan.
    const second = startServer({ ...env, STORAGE_SWEEP_GRACE_MINUTES: '0', LOG_LEVEL: 'info' });
    await waitForHealth(port);
    const finished = () =>
      second
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"job":"storage-sweep"') && line.includes('"msg":"job finished"'))
        .map((line) => JSON.parse(line) as { counts: Record<string, number> })[0];
    await expect.poll(finished, { timeout: 30_000, interval: 100 }).toBeDefined();
    expect(finished()!.counts).toMatchObject({ removed: orphansBefore.length, failed: 0 });

    for (const id of acknowledged) {
      const response = await fetch(`${base}/api/blogs/${id}`);
      expect(response.status).toBe(200);
      const { image } = (await response.json()) as { image: { url: string; srcset: string; ogUrl: string } };
      const urls = [image.url, image.ogUrl, ...image.srcset.split(', ').map((entry) => entry.split(' ')[0]!)];
      expect(urls.length).toBeGreaterThanOrEqual(4);
      for (const url of urls) expect((await fetch(new URL(url, base))).status, url).toBe(200);
    }
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const after = await namedFiles(dataDir);
    const files = storedFiles(dataDir);
    expect(files.filter((key) => !after.named.has(key))).toEqual([]);
    expect(files.some((key) => key.endsWith('.tmp'))).toBe(false);
    expect(after.blogIds).toEqual(expect.arrayContaining(acknowledged));
  }, 180_000);
});
