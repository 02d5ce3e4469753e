import { mkdtempSync, readdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db/database.js';
import { solidPng } from './testing/image-fixtures.js';
import { freePort, migratedDataDir, signUpOverHttp, slowContactPost, startServer, waitForHealth } from './testing/server-process.js';

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
    const first = startServer({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await waitForHealth(port);

    const inFlight = slowContactPost(port);
    await first.logged(/"incoming request".*\/api\/contact|\/api\/contact.*"incoming request"/);
    first.child.kill('SIGTERM');
    await first.logged(/shutting down: finishing in-flight requests/);
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

  it('on SIGTERM, finishes an upload in flight and rolls back one that never arrives: no half-written blog or file', async () => {
    const dataDir = migratedDataDir('blog-main-');
    const port = await freePort();
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, AUTH_REQUIRE_EMAIL_VERIFICATION: 'false', REQUEST_TIMEOUT_MS: '3000', LOG_LEVEL: 'info' });
    await waitForHealth(port);
    const cookie = await signUpOverHttp(port, 'uploader@example.com');

    const finished = await slowUpload(port, cookie, 'Finished across a shutdown');
    const abandoned = await slowUpload(port, cookie, 'Never finished');
    await server.logged(/"incoming request".*"POST","url":"\/api\/blogs"|"POST","url":"\/api\/blogs".*"incoming request"/, 2);
    server.child.kill('SIGTERM');
    await server.logged(/shutting down: finishing in-flight requests/);
    finished.finish();
    expect(await finished.done).toMatch(/^HTTP\/1\.1 201/);
    expect(await abandoned.done).not.toMatch(/^HTTP\/1\.1 2/);
    expect(await server.exited).toBe(0);

    const database = await openDatabase({ dataDir });
    const blogs = await database.db.selectFrom('blogs').select(['title', 'image_key']).execute();
    await database.close();
    expect(blogs.map((blog) => blog.title)).toEqual(['Finished across a shutdown']);
    const uploads = readdirSync(path.join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    // The finished blog's image and its sized copies (all named after its key), nothing else.
    const stored = uploads.map((entry) => path.relative(path.join(dataDir, 'uploads'), path.join(entry.parentPath, entry.name)));
    const key = blogs[0]!.image_key!;
    expect(stored).toContain(key);
    expect(stored.filter((file) => !file.startsWith(key.replace(/\.webp$/, '')))).toEqual([]);
  }, 120_000);
});

/** A multipart blog upload whose body arrives in two parts, so it is in flight between them. */
async function slowUpload(port: number, cookie: string, title: string) {
  const form = new FormData();
  form.append('title', title);
  form.append('blog', 'uploaded while the server shuts down');
  form.append('image', new Blob([new Uint8Array(await solidPng(300, 200))], { type: 'image/png' }), 'a.png');
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const socket = net.connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk) => (response += chunk.toString()));
  socket.on('error', () => undefined);
  const done = new Promise<string>((resolve) => socket.on('close', () => resolve(response)));
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /api/blogs HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:${port}\r\nCookie: ${cookie}\r\n` +
      `Content-Type: ${encoded.headers.get('content-type')}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, half));
  return { finish: () => socket.write(body.subarray(half)), done };
}
