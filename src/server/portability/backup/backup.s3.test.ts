// test-plan: PGlite only (it restores into a fresh PGlite; what it proves, the images in S3, is the same on either database)
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../blogs/blogs.service.js';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { uploadInlineImage } from '../../core/inline-images.js';
import { createImageStorage, IMAGE_KEY_PREFIX, type ImageStorage } from '../../storage/storage.js';
import { solidPng } from '../../testing/image-fixtures.js';
import { startS3TestServer, type S3TestServer } from '../../testing/s3-test-server.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signUpUser } from '../../testing/test-users.js';
import { tempDir } from '../../testing/temp-dirs.js';
import { restoreBackup, writeBackup } from './backup.service.js';

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;

/** Every object of the image store, key → bytes (base64). */
async function objects(storage: ImageStorage) {
  const all = new Map<string, string>();
  for await (const page of storage.list(IMAGE_KEY_PREFIX)) for (const object of page) all.set(object.key, (await storage.get(object.key))!.toString('base64'));
  return all;
}

describe('backup and restore with the images in S3 (s3rver)', () => {
  let sourceS3: S3TestServer;
  let targetS3: S3TestServer;
  let source: TestApp;
  let storage: ImageStorage;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    [sourceS3, targetS3] = await Promise.all([startS3TestServer('old-site'), startS3TestServer('new-site')]);
    source = await createTestApp(sourceS3.env);
    storage = createImageStorage(source.config);
    tmp = tempDir('backup-s3-');
    const ada = await signUpUser(source.app, { email: 'ada@example.com' });
    const deps = { db: source.database.db, storage, log: silent };
    const inline = await uploadInlineImage(deps, ada.id, { filename: 'chart.png', data: await solidPng(120, 80, '#aa3355') });
    await createBlog(deps, ada.id, {
      fields: { title: 'Kept in a bucket', blog: `Text\n\n![chart](${inline.url})` },
      image: { filename: 'cover.png', data: await solidPng(200, 100) },
    });
  });
  afterAll(async () => {
    await source.close();
    await Promise.all([sourceS3.close(), targetS3.close()]);
    tmp.remove();
  });

  it('copies every object of the bucket into the backup and writes each back, byte for byte, into an empty bucket', { timeout: 240_000 }, async () => {
    const before = await objects(storage);
    // A cover and an inline image, each with its variants.
    expect(before.size).toBeGreaterThan(2);
    const backup = path.join(tmp.dir, 'site-backup.zip');
    const manifest = await writeBackup({ config: source.config, database: source.database, storage }, backup);
    expect(manifest.images).toBe(before.size);

    const dataDir = path.join(tmp.dir, 'restored');
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'silent', ...targetS3.env });
    const targetStorage = createImageStorage(config);
    expect((await objects(targetStorage)).size).toBe(0);
    await restoreBackup(config, targetStorage, backup);
    expect(await objects(targetStorage)).toEqual(before);

    // The restored blog names the same images.
    const restored = await openDatabase({ dataDir });
    try {
      const blog = await restored.db.selectFrom('blogs').select(['title', 'image_key']).executeTakeFirstOrThrow();
      expect(blog.title).toBe('Kept in a bucket');
      expect([...before.keys()].some((key) => blog.image_key !== null && key.includes(blog.image_key))).toBe(true);
    } finally {
      await restored.close();
    }
    // Never over a bucket that holds images.
    await expect(restoreBackup(config, targetStorage, backup)).rejects.toThrow(/already holds images/);
  });
});
