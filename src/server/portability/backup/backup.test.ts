// test-plan: PGlite only (PGlite's own dump and restore; backup.postgres.test.ts is pg_dump's)
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../blogs/blogs.service.js';
import { createComment } from '../../comments/comments.service.js';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { uploadInlineImage } from '../../core/inline-images.js';
import { createImageStorage, IMAGE_KEY_PREFIX, type ImageStorage } from '../../storage/storage.js';
import { solidPng } from '../../testing/image-fixtures.js';
import { signUpUser } from '../../testing/test-users.js';
import { post } from '../../testing/auth-test-kit.js';
import { castVote } from '../../votes/votes.service.js';
import { useImportSite, useTempDir } from '../../testing/import-test-support.js';
import { BackupError, restoreBackup, writeBackup } from './backup.service.js';

const TABLES = ['user', 'account', 'session', 'twoFactor', 'passkey', 'blogs', 'votes', 'comments', 'inline_images', 'tag_counts', 'subscriptions'] as const;

/** Every row of the tables a site is made of, in a stable order. */
async function rows(db: Kysely<Database>) {
  const all: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const result = await db.selectFrom(table).selectAll().execute();
    all[table] = result.map((row) => JSON.stringify(row)).sort();
  }
  return all;
}

async function objects(storage: ImageStorage) {
  const all = new Map<string, string>();
  for await (const page of storage.list(IMAGE_KEY_PREFIX)) for (const object of page) all.set(object.key, (await storage.get(object.key))!.toString('base64'));
  return all;
}

describe('npm run backup / npm run restore', () => {
  const source = useImportSite();
  const tmp = useTempDir('backup-');
  let backup: string;
  beforeAll(async () => {
    const { app } = source.t;
    const ada = await signUpUser(app, { email: 'ada@example.com' });
    const bob = await signUpUser(app, { email: 'bob@example.com' });
    const inline = await uploadInlineImage(source.deps, ada.id, { filename: 'chart.png', data: await solidPng(120, 80, '#aa3355') });
    const blog = await createBlog(source.deps, ada.id, {
      fields: { title: 'Backed up', blog: `Text\n\n![chart](${inline.url})`, tags: 'safe' },
      image: { filename: 'cover.png', data: await solidPng(200, 100) },
    });
    await createBlog(source.deps, bob.id, { fields: { title: 'A draft', blog: 'x', status: 'draft' } });
    await castVote(source.deps.db, { blogId: blog.id, userId: bob.id, direction: 'up' });
    // Ada's second factors: an authenticator app and a passkey (issue 45).
    const enabled = await post(app, '/api/auth/two-factor/enable', { password: ada.password }, { cookie: ada.cookie });
    expect(enabled.statusCode, enabled.body).toBe(200);
    await source.deps.db
      .insertInto('passkey')
      .values({ id: 'pk-ada', name: 'Laptop', publicKey: 'AQID', userId: ada.id, credentialID: 'cred-ada', counter: 3, deviceType: 'singleDevice', backedUp: false, transports: 'internal', createdAt: new Date(), aaguid: null })
      .execute();
    const comment = await createComment(source.deps, bob.id, blog.id, { body: 'Nice' });
    await createComment(source.deps, ada.id, blog.id, { body: 'Thanks', parentId: comment.comment.id });
    writeFileSync(path.join(source.t.dataDir, 'auth-secret'), 'the-secret-that-signed-the-cookies\n');
    backup = path.join(tmp.dir, 'site-backup.zip');
  });

  it('backup → restore into a fresh DATA_DIR: the same rows (blogs, accounts, sessions, votes, comments) and image bytes', { timeout: 240_000 }, async () => {
    const manifest = await writeBackup({ config: source.t.config, database: source.t.database, storage: source.deps.storage }, backup);
    // The whole database (sessions, reset tokens) and the auth secret: for the owner only.
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(manifest).toMatchObject({ format: 'blogging-site-backup', database: 'pglite' });
    expect(manifest.migrations).toContain('2026-11-25-06-imports');
    // Two images, each with its variants and Open Graph crop.
    expect(manifest.images).toBe((await objects(source.deps.storage)).size);

    const dataDir = path.join(tmp.dir, 'restored');
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'silent' });
    const storage = createImageStorage(config);
    await restoreBackup(config, storage, backup);

    const restored = await openDatabase({ dataDir });
    try {
      const before = await rows(source.deps.db);
      expect(before.session!.length).toBe(2);
      expect(before.votes!.length).toBe(1);
      expect(before.twoFactor!.length).toBe(1);
      expect(before.passkey!.length).toBe(1);
      expect(await rows(restored.db)).toEqual(before);
    } finally {
      await restored.close();
    }
    expect(await objects(storage)).toEqual(await objects(source.deps.storage));
    expect(readFileSync(path.join(dataDir, 'auth-secret'), 'utf8')).toBe('the-secret-that-signed-the-cookies\n');

    // Never over a site that has data.
    await expect(restoreBackup(config, storage, backup)).rejects.toThrow(BackupError);
    await expect(restoreBackup(config, storage, backup)).rejects.toThrow(/already holds images/);
  });

  it('refuses what is not a backup', async () => {
    const dataDir = path.join(tmp.dir, 'other');
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'silent' });
    const notBackup = path.join(tmp.dir, 'not.zip');
    writeFileSync(notBackup, 'nope');
    await expect(restoreBackup(config, createImageStorage(config), notBackup)).rejects.toThrow(/not a readable zip/);
  });
});
