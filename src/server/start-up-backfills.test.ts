import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { processUploadedImage } from './images/image-processing.js';
import { createLocalImageStorage } from './storage/local-storage.js';
import { newImageKey } from './storage/storage.js';
import { solidPng } from './testing/image-fixtures.js';
import { startHealthyServer } from './testing/server-process.js';

// What a server does at start-up for a site an earlier version left (main.test.ts is the process
// itself: start, SIGTERM, restart). About our code, not the runtime: these run on one Node.
/** A new data folder whose database, migrated, has one user (`id`) written straight into it, as an earlier version left it. */
async function siteWithUser(id: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'blog-main-'));
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const now = new Date();
  await database.db.insertInto('user').values({ id, name: 'old', email: 'old@example.com', emailVerified: true, createdAt: now, updatedAt: now }).execute();
  return { dataDir, database };
}

describe("at start-up, the server brings an earlier version's site up to date", () => {
  // One site as an earlier version left it, for both tests, and one start: a blog whose image is one
  // WebP and an image_key (from before variants), and one whose Markdown was never rendered.
  let dataDir: string;
  let port: number;
  let server: Awaited<ReturnType<typeof startHealthyServer>>['server'];
  let imageBlogId: string;
  const key = newImageKey('old.png', 'old-user');
  beforeAll(async () => {
    const site = await siteWithUser('old-user');
    dataDir = site.dataDir;
    try {
      const image = await processUploadedImage(await solidPng(1200, 600));
      await createLocalImageStorage(path.join(dataDir, 'uploads')).put(key, image.data, image.contentType);
      imageBlogId = (await site.database.db.insertInto('blogs').values({ user_id: 'old-user', title: 'Old blog', body: 'old', image_key: key }).returning('id').executeTakeFirstOrThrow()).id;
      await site.database.db.insertInto('blogs').values({ user_id: 'old-user', title: 'Old', body: 'Old *text*\nkept' }).execute();
    } finally {
      await site.database.close();
    }
    ({ port, server } = await startHealthyServer({ DATA_DIR: dataDir }, undefined, { lifetime: 'file' }));
  }, 120_000);

  it('gives images stored before variants existed their variants in the background after start-up', async () => {
    await expect
      .poll(
        async () => ((await (await fetch(`http://127.0.0.1:${port}/api/blogs/${imageBlogId}`)).json()) as { image: unknown }).image,
        { timeout: 30_000, interval: 200 },
      )
      .toMatchObject({ url: `/uploads/${key}`, width: 1200, height: 600, srcset: expect.stringMatching(/480w, .*960w, .*1200w$/) });
    const og = await fetch(`http://127.0.0.1:${port}/uploads/${key.replace(/\.webp$/, '-og.webp')}`);
    expect(og.status).toBe(200);
  }, 120_000);

  // Reads the database, which the server holds while it runs: it stops the server, so it comes last.
  it('renders at start-up the blogs saved before Markdown was rendered on write', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const after = await openDatabase({ dataDir });
    const row = await after.db.selectFrom('blogs').select(['html', 'excerpt', 'reading_minutes']).where('title', '=', 'Old').executeTakeFirstOrThrow();
    await after.close();
    expect(row).toEqual({ html: '<p>Old <em>text</em><br />\nkept</p>\n', excerpt: 'Old text kept', reading_minutes: 1 });
  }, 120_000);
});
