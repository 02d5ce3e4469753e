import { mkdtempSync, readdirSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { allImageKeys } from '../images/stored-image.js';
import { createLocalImageStorage } from '../storage/local-storage.js';
import { newImageKey } from '../storage/storage.js';
import { runCli } from '../testing/server-process.js';

const CLI = path.resolve(import.meta.dirname, 'storage-sweep.cli.ts');

/** `npm run storage:sweep` as its built file runs, from source. */
const sweepCli = (dataDir: string, ...args: string[]) => runCli(CLI, dataDir, ...args);

const files = (dataDir: string) =>
  readdirSync(path.join(dataDir, 'uploads', 'blogs')).map((name) => `blogs/${name}`).sort();

describe('npm run storage:sweep', () => {
  let dataDir: string;
  let named: string[];
  let orphans: string[];
  let young: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sweep-cli-'));
    const database = await openDatabase({ dataDir });
    await migrateToLatest(database.db);
    const now = new Date();
    await database.db.insertInto('user').values({ id: 'u1', name: 'u', email: 'u@example.com', emailVerified: true, createdAt: now, updatedAt: now }).execute();
    const storage = createLocalImageStorage(path.join(dataDir, 'uploads'));
    const cover = newImageKey('kept.png', 'u1');
    named = allImageKeys(cover);
    await database.db.insertInto('blogs').values({ user_id: 'u1', title: 'Kept', body: 'x', image_key: cover }).execute();
    orphans = allImageKeys(newImageKey('crashed.png', 'u1'));
    young = newImageKey('uploading.png', 'u1');
    for (const key of [...named, ...orphans, young]) await storage.put(key, Buffer.from('bytes'), 'image/webp');
    // Two hours old, past the default grace period of an hour; `young` was just written.
    const old = new Date(Date.now() - 2 * 3_600_000);
    for (const key of [...named, ...orphans]) utimesSync(path.join(dataDir, 'uploads', key), old, old);
    await database.close();
  }, 60_000);

  it('refuses clearly while another process has the embedded database open', async () => {
    const holder = await openDatabase({ dataDir });
    try {
      const result = await sweepCli(dataDir, '--dry-run');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`in use by process ${process.pid}`);
      expect(result.stderr).toContain('Stop it first');
    } finally {
      await holder.close();
    }
  }, 60_000);

  it('--dry-run prints what it would remove and changes nothing', async () => {
    const before = files(dataDir);
    const result = await sweepCli(dataDir, '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    const listed = result.stdout.split('\n').filter((line) => line.startsWith('would remove\t')).map((line) => line.split('\t')[1]);
    expect(listed.sort()).toEqual([...orphans].sort());
    expect(result.stdout).toMatch(/dry run, nothing changed: listed 9 files .*kept 5 \(1 inside the grace period of 60 min\)/);
    expect(files(dataDir)).toEqual(before);
  }, 60_000);

  it('removes the orphans past the grace period and prints them; --grace-minutes 0 takes the young one too', async () => {
    const result = await sweepCli(dataDir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n').filter((line) => line.startsWith('removed\t')).map((line) => line.split('\t')[1]).sort()).toEqual([...orphans].sort());
    expect(files(dataDir)).toEqual([...named, young].sort());

    const now = await sweepCli(dataDir, '--grace-minutes', '0');
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toContain(`removed\t${young}\t`);
    expect(files(dataDir)).toEqual([...named].sort());
  }, 60_000);

  it('refuses a grace that is not a whole number of minutes', async () => {
    const result = await sweepCli(dataDir, '--grace-minutes', 'soon');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--grace-minutes must be a whole number');
  }, 60_000);
});
