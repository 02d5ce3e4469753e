import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { createJobRunner } from './job-runner.js';

// Runs in the `postgres` Vitest project only (see vitest.config.ts), where TEST_DATABASE_URL is set.
describe('one job across processes on one Postgres', () => {
  const handles: DatabaseHandle[] = [];
  afterAll(() => Promise.all(handles.map((handle) => handle.close())));
  const open = async () => {
    const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, dataDir: mkdtempSync(path.join(os.tmpdir(), 'jobs-')) });
    handles.push(handle);
    return handle;
  };
  const silent = { info() {}, error() {}, debug() {}, warn() {}, child: () => silent } as never;

  it('runs in one process at a time: the other skips its turn while the first holds the lock, and runs once it is given back', async () => {
    // Two pools, as two app processes have.
    const [one, two] = [await open(), await open()];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const running = new Promise<void>((resolve) => (entered = resolve));
    const first = createJobRunner({ database: one, log: silent });
    const second = createJobRunner({ database: two, log: silent });
    // The job's own queries use the pool beside the lock's connection.
    first.register({ name: 'shared', run: async () => { entered(); await held; await sql`select 1`.execute(one.db); return { n: 1 }; } });
    second.register({ name: 'shared', run: async () => ({ n: 2 }) });
    const firstRun = first.runNow('shared');
    await running;
    expect(await second.runNow('shared')).toEqual({ status: 'skipped' });
    expect(second.stats()[0]).toMatchObject({ skipped: 1, runs: 0 });
    release();
    expect(await firstRun).toEqual({ status: 'done', counts: { n: 1 } });
    expect(await second.runNow('shared')).toEqual({ status: 'done', counts: { n: 2 } });
  });
});
