import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../../testing/server-process.js';
import { openImportArchive } from '../import/import-archive.js';
import { tempDir } from '../../testing/temp-dirs.js';

const CLI = path.resolve(import.meta.dirname, 'backup.cli.ts');

describe('npm run backup while the server runs on PGlite', () => {
  const tmp = tempDir('backup-running-');
  afterAll(() => tmp.remove());

  it('asks the server, which writes the backup while it keeps answering', { timeout: 240_000 }, async () => {
    const dataDir = migratedDataDir('backup-running-data-');
    const port = await freePort();
    const server = startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(32) });
    await waitForHealth(port, 180_000);
    const out = path.join(tmp.dir, 'live.zip');
    const backup = promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, '--out', out], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(32) },
    });
    // The server answers while the backup is written.
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    const { stdout, stderr } = await backup;
    expect(stderr).toMatch(/The server \(process \d+\) holds the database: asking it for the backup \(SIGUSR2\)\./);
    expect(stdout).toContain(`wrote ${out} (by the running server)`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const archive = await openImportArchive(out);
    try {
      expect(archive.has('backup.json')).toBe(true);
      expect(archive.has('database/pglite.tar.gz')).toBe(true);
      expect(JSON.parse((await archive.read('backup.json')).toString('utf8'))).toMatchObject({ database: 'pglite' });
    } finally {
      archive.close();
    }
    expect(readdirSync(path.join(dataDir, 'backups'))).toEqual([]);
    expect(existsSync(`${out}.partial`)).toBe(false);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
