import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealth } from './testing/server-process.js';

const root = path.resolve(import.meta.dirname, '../..');
const major = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1]);

// The project promises Node 24 LTS or newer (docs/runtime.md): these tests run on the Node that
// `npm test` gives them, so on the system Node 20 of a machine that skipped `npm ci` they fail.
describe('the runtime', () => {
  it('is the Node the project promises, and the files that promise it agree', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      engines: { node: string };
      dependencies: Record<string, string>;
    };
    expect(manifest.engines.node).toBe('>=24');
    expect(readFileSync(path.join(root, '.node-version'), 'utf8').trim()).toBe('24');
    // The npm registry's `node` package brings Node 24 to machines whose own Node is older.
    expect(manifest.dependencies.node).toMatch(/^\^24\./);
    expect(major(process.version)).toBeGreaterThanOrEqual(24);
  });

  it('names the Node it runs on when it starts', async () => {
    const port = await freePort();
    const server = startServer({ PORT: String(port), DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'blog-runtime-')), LOG_LEVEL: 'info' });
    await waitForHealth(port);
    expect(server.stdout()).toContain(`Node ${process.version})`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);
});
