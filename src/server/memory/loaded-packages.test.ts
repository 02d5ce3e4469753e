import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../testing/image-fixtures.js';
import { freePort, migratedDataDir, signUpOverHttp, startServer, waitForHealth } from '../testing/server-process.js';

const RECORDER = pathToFileURL(path.resolve(import.meta.dirname, '../testing/record-packages.mjs')).href;

/**
 * Loading a package costs resident memory whether it is used or not (docs/memory.md measures
 * each): what only some sites or some requests need is loaded on first use.
 */
describe('packages loaded on first use', () => {
  // One server for both: the reads first, then an upload; the recorder writes each package as it
  // is loaded, so each test reads what had been loaded by its end.
  const dataDir = migratedDataDir('blog-packages-');
  const file = path.join(dataDir, 'packages.txt');
  let port: number;
  let server: ReturnType<typeof startServer>;
  beforeAll(async () => {
    port = await freePort();
    server = startServer({ PORT: String(port), DATA_DIR: dataDir, AUTH_REQUIRE_EMAIL_VERIFICATION: 'false', NODE_OPTIONS: `--import ${RECORDER}`, RECORD_PACKAGES_FILE: file }, { lifetime: 'file' });
    await waitForHealth(port, 90_000);
  }, 120_000);
  afterAll(async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('a site on the embedded database that has served lists, a search, the feed and the sitemap has not loaded sharp, pg, S3, the AI SDK, nodemailer, prom-client, highlight.js or Fedify', async () => {
    for (const url of ['/api/blogs?page=1', '/api/search?searchTerm=a', '/rss.xml', '/sitemap.xml']) {
      const response = await fetch(`http://127.0.0.1:${port}${url}`);
      expect(response.status, url).toBe(200);
      await response.arrayBuffer();
    }

    const loaded = packagesBy(file).get(server.child.pid!) ?? [];
    expect(loaded).toEqual(expect.arrayContaining(['fastify', 'better-auth', 'kysely', '@electric-sql/pglite']));
    for (const name of ['sharp', 'pg', '@aws-sdk/client-s3', 'openai', 'nodemailer', 'prom-client', 'highlight.js', '@fedify/fedify', '@fedify/vocab', 'jsonld']) expect(loaded, name).not.toContain(name);
  }, 120_000);

  it('a site that has received an image upload has still not loaded sharp: a child process made the image', async () => {
    const cookie = await signUpOverHttp(port, 'uploader@example.com');
    const form = new FormData();
    form.append('title', 'With a picture');
    form.append('blog', 'A blog with an image.');
    form.append('image', new Blob([new Uint8Array(await solidPng(1200, 800))], { type: 'image/png' }), 'a.png');
    const created = await fetch(`http://127.0.0.1:${port}/api/blogs`, {
      method: 'POST',
      headers: { origin: `http://localhost:${port}`, cookie },
      body: form,
    });
    expect(created.status).toBe(201);
    const { image } = (await created.json()) as { image: { url: string; srcset: string } };
    expect(image.srcset).toMatch(/480w, .*960w, .*1200w$/);
    expect((await fetch(`http://127.0.0.1:${port}${image.url}`)).headers.get('content-type')).toBe('image/webp');

    const byProcess = packagesBy(file);
    expect(byProcess.get(server.child.pid!), 'the server').not.toContain('sharp');
    const children = [...byProcess].filter(([pid]) => pid !== server.child.pid);
    expect(children.map(([, packages]) => packages.includes('sharp'))).toEqual([true]);
  }, 120_000);
});

/** The recorder's file, by process: pid to the packages it loaded. */
function packagesBy(file: string): Map<number, string[]> {
  const byProcess = new Map<number, string[]>();
  for (const line of readFileSync(file, 'utf8').trim().split('\n')) {
    const [pid, name] = line.split(' ');
    byProcess.set(Number(pid), [...(byProcess.get(Number(pid)) ?? []), name!]);
  }
  return byProcess;
}
