import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealth } from '../testing/server-process.js';

const RECORDER = pathToFileURL(path.resolve(import.meta.dirname, '../testing/record-packages.mjs')).href;

/**
 * Loading a package costs resident memory whether it is used or not (docs/memory.md measures
 * each): what only some sites or some requests need is loaded on first use.
 */
describe('packages loaded on first use', () => {
  // The server runs from source, where the pages exist only after a build: the API, the feed and
  // the sitemap are what it serves here.
  it('a site on the embedded database that has served lists, a search, the feed and the sitemap has not loaded sharp, pg, S3, the AI SDK, nodemailer, prom-client, highlight.js or Fedify', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'blog-packages-'));
    const file = path.join(dataDir, 'packages.txt');
    const port = await freePort();
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, NODE_OPTIONS: `--import ${RECORDER}`, RECORD_PACKAGES_FILE: file });
    await waitForHealth(port, 90_000);
    for (const url of ['/api/blogs?page=1', '/api/search?searchTerm=a', '/rss.xml', '/sitemap.xml']) {
      const response = await fetch(`http://127.0.0.1:${port}${url}`);
      expect(response.status, url).toBe(200);
      await response.arrayBuffer();
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const loaded = readFileSync(file, 'utf8').trim().split('\n');
    // The recorder sees what the server does load.
    expect(loaded).toEqual(expect.arrayContaining(['fastify', 'better-auth', 'kysely', '@electric-sql/pglite']));
    for (const name of ['sharp', 'pg', '@aws-sdk/client-s3', 'openai', 'nodemailer', 'prom-client', 'highlight.js', '@fedify/fedify', '@fedify/vocab', 'jsonld']) expect(loaded, name).not.toContain(name);
  }, 120_000);
});
