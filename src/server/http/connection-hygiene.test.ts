import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { solidPng } from '../testing/image-fixtures.js';
import { freePort, migratedDataDir, startHealthyServer, startServer, waitForHealth } from '../testing/server-process.js';

/** Opens a POST /api/contact that announces a body and then sends one byte every `everyMs`. */
function trickle(port: number, everyMs: number) {
  const socket = net.connect(port, '127.0.0.1');
  let response = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('data', (chunk) => (response += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<{ at: number; response: string }>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ at: Date.now(), response });
    }),
  );
  socket.on('connect', () => {
    socket.write(
      `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    );
    timer = setInterval(() => socket.write(' '), everyMs);
  });
  return { socket, closed };
}

async function timedHealth(port: number) {
  const started = Date.now();
  const response = await fetch(`http://127.0.0.1:${port}/api/health`);
  return { status: response.status, ms: Date.now() - started };
}

describe('a process that outlasts slow and flooding clients', () => {
  it('closes 1,000 slow-body connections within the request timeout, answering health checks meanwhile', async () => {
    const { port, server } = await startHealthyServer({ REQUEST_TIMEOUT_MS: '3000', HEADERS_TIMEOUT_MS: '2000', DATA_DIR: migratedDataDir('blog-hygiene-') });

    const opened = Date.now();
    const clients = Array.from({ length: 1000 }, () => trickle(port, 500));
    await Promise.all(clients.map((client) => new Promise((resolve) => client.socket.once('connect', resolve))));

    // While all 1,000 are connected and trickling, the server keeps answering, one check after
    // another: each with 200, and typically (the median of five, so one check that the machine's
    // other work delayed does not decide) within a second.
    const checks = [];
    for (let i = 0; i < 5; i++) checks.push(await timedHealth(port));
    expect(checks.map((check) => check.status)).toEqual([200, 200, 200, 200, 200]);
    expect(checks.map((check) => check.ms).sort((a, b) => a - b)[2]).toBeLessThan(1_000);

    const results = await Promise.all(clients.map((client) => client.closed));
    // Closed by the server: the request timeout (3 s) plus Node's check interval (500 ms here) and slack.
    const latest = Math.max(...results.map((result) => result.at)) - opened;
    expect(latest).toBeLessThan(10_000);
    expect(results.every((result) => result.response === '' || result.response.startsWith('HTTP/1.1 408'))).toBe(true);
    expect((await timedHealth(port)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('closes connections beyond MAX_CONNECTIONS at once instead of running out of file descriptors', async () => {
    const { port, server } = await startHealthyServer({ MAX_CONNECTIONS: '20', LOG_LEVEL: 'info', DATA_DIR: migratedDataDir('blog-hygiene-') });
    const held = Array.from({ length: 20 }, () => trickle(port, 1_000));
    // The server holds all 20 (it has read each one's request line), so the next is one too many.
    await server.logged(/"url":"\/api\/contact".*"incoming request"/, 20);
    const extra = trickle(port, 1_000);
    const closedAt = (await extra.closed).at;
    expect(extra.socket.bytesRead).toBe(0);
    expect(closedAt).toBeGreaterThan(0);
    for (const client of held) client.socket.destroy();
    await Promise.all(held.map((client) => client.closed));
    await waitForHealth(port, 5_000);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);
});

describe('data at rest only the server can read', () => {
  it('creates DATA_DIR and everything in it 0700/0600, whatever the umask, and tightens an existing DATA_DIR', async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'blog-private-')), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    const port = await freePort();
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, AUTH_REQUIRE_EMAIL_VERIFICATION: 'false' }, { umask: 0 });
    await waitForHealth(port);
    const base = `http://127.0.0.1:${port}`;
    const origin = `http://localhost:${port}`;

    // A session (database), a mail in the outbox (a reset link) and an upload.
    const account = { email: 'private@example.com', password: 'correct horse battery', name: 'private' };
    const signUp = () =>
      fetch(`${base}/api/auth/sign-up/email`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(account) });
    const first = await signUp();
    expect(first.status).toBe(200);
    const cookie = first.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
    const reset = await fetch(`${base}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email }),
    });
    expect(reset.status).toBe(200);
    const form = new FormData();
    form.append('title', 'Private');
    form.append('blog', 'files');
    form.append('image', new Blob([new Uint8Array(await solidPng(20, 20))], { type: 'image/png' }), 'a.png');
    expect((await fetch(`${base}/api/blogs`, { method: 'POST', headers: { origin, cookie }, body: form })).status).toBe(201);
    await expect.poll(() => readdirSync(dataDir).includes('mail') && readdirSync(path.join(dataDir, 'mail')).length > 0, { timeout: 5_000 }).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const entries = readdirSync(dataDir, { recursive: true, withFileTypes: true });
    const names = entries.map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)));
    expect(names).toEqual(expect.arrayContaining(['pglite', 'auth-secret', 'mail', 'uploads']));
    expect(names.some((name) => name.startsWith('pglite/pg_wal/'))).toBe(true);
    const loose = [dataDir, ...entries.map((entry) => path.join(entry.parentPath, entry.name))]
      .map((file) => ({ file, mode: statSync(file).mode & 0o777, dir: statSync(file).isDirectory() }))
      .filter(({ mode, dir }) => mode !== (dir ? 0o700 : 0o600));
    expect(loose).toEqual([]);
  }, 60_000);
});
