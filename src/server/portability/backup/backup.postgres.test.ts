import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../blogs/blogs.service.js';
import { createComment } from '../../comments/comments.service.js';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { createImageStorage } from '../../storage/storage.js';
import { solidPng } from '../../testing/image-fixtures.js';
import { adminQuery, withDatabase } from '../../testing/postgres-admin.js';
import { signUpUser } from '../../testing/test-users.js';
import { castVote } from '../../votes/votes.service.js';
import { importSite, tempDir } from '../../testing/import-test-support.js';
import { restoreBackup, writeBackup } from './backup.service.js';

const TABLES = ['user', 'account', 'session', 'blogs', 'votes', 'comments', 'inline_images'] as const;

async function rows(db: Kysely<Database>) {
  const all: Record<string, string[]> = {};
  for (const table of TABLES) all[table] = (await db.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort();
  return all;
}

describe('backup and restore on Postgres (pg_dump, pg_restore)', () => {
  let source: Awaited<ReturnType<typeof importSite>>;
  let tmp: ReturnType<typeof tempDir>;
  const emptyDb = `restore_${randomBytes(5).toString('hex')}`;
  beforeAll(async () => {
    source = await importSite();
    tmp = tempDir('backup-pg-');
    await adminQuery(process.env.TEST_DATABASE_URL!, `create database ${emptyDb}`);
  });
  afterAll(async () => {
    await source.close();
    await adminQuery(process.env.TEST_DATABASE_URL!, `drop database if exists ${emptyDb} with (force)`);
    tmp.remove();
  });

  it('backup while the app runs → restore into an empty database: the same rows and images', { timeout: 240_000 }, async () => {
    const ada = await signUpUser(source.t.app, { email: 'ada@example.com' });
    const blog = await createBlog(source.deps, ada.id, { fields: { title: 'On Postgres', blog: 'Text' }, image: { filename: 'c.png', data: await solidPng(50, 40) } });
    await castVote(source.deps.db, { blogId: blog.id, userId: ada.id, direction: 'up' });
    await createComment(source.deps, ada.id, blog.id, { body: 'Mine' });
    const file = path.join(tmp.dir, 'pg-backup.zip');
    const manifest = await writeBackup({ config: source.t.config, database: source.t.database, storage: source.deps.storage }, file);
    expect(manifest.database).toBe('postgres');

    const url = withDatabase(process.env.TEST_DATABASE_URL!, emptyDb);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(tmp.dir, 'restored'), DATABASE_URL: url, PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'silent' });
    await restoreBackup(config, createImageStorage(config), file);
    const restored = await openDatabase({ databaseUrl: url, dataDir: config.dataDir });
    try {
      expect(await rows(restored.db)).toEqual(await rows(source.deps.db));
    } finally {
      await restored.close();
    }
    const storage = createImageStorage(config);
    expect((await storage.get(blog.imageUrl!.replace(/^\/uploads\//, '')))?.equals((await source.deps.storage.get(blog.imageUrl!.replace(/^\/uploads\//, '')))!)).toBe(true);
    await expect(restoreBackup(config, createImageStorage(config), file)).rejects.toThrow(/already holds images/);
  });
});
