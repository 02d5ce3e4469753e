import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db/database.js';
import { freePort, slowContactPost, startServer, waitForHealth } from './testing/server-process.js';

describe('the server process', () => {
  it('stops with one clear line naming a bad variable', async () => {
    const server = startServer({ PORT: 'not-a-port', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'blog-main-')) });
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT /);
  });

  it('keeps its data across restarts and finishes in-flight requests on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'blog-main-'));
    const port = await freePort();
    const first = startServer({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port);

    const inFlight = slowContactPost(port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    inFlight.finish();
    expect(await inFlight.done).toMatch(/^HTTP\/1\.1 201/);
    expect(await first.exited).toBe(0);

    const second = startServer({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);

    const database = await openDatabase({ dataDir });
    const rows = await sql<{ email: string }>`select email from contact_messages`.execute(database.db);
    await database.close();
    expect(rows.rows.map((row) => row.email)).toEqual(['slow@example.com']);
  }, 120_000);
});
