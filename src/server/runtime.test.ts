import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, migratedDataDir, signUpOverHttp, startServer, waitForHealth } from './testing/server-process.js';

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

  it('names the Node it runs on when it starts, and after kill -9 starts again with nothing lost', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: migratedDataDir('blog-runtime-'), AUTH_REQUIRE_EMAIL_VERIFICATION: 'false', LOG_LEVEL: 'info' };
    const first = startServer(env);
    await waitForHealth(port);
    expect(first.stdout()).toContain(`Node ${process.version})`);
    const cookie = await signUpOverHttp(port, 'crash@example.com');

    // A crash: no shutdown, the embedded database's files and DATA_DIR's lock left as they were.
    first.child.kill('SIGKILL');
    await first.exited;
    const second = startServer(env);
    await waitForHealth(port);
    const account = await fetch(`http://127.0.0.1:${port}/api/account`, { headers: { cookie } });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ email: 'crash@example.com' });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
