import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_STATE_ID } from '../../shared/page-render.js';
import type { PageRenderer } from '../pages/page-renderer.js';
import { createPageHandler, fillTemplate } from '../pages/pages.js';
import { buildApp, type App } from '../app.js';
import { useTestApp } from '../testing/test-app.js';

describe('serving the web app', () => {
  const t = useTestApp();
  let app: App;
  let withMaps: App;
  beforeAll(async () => {
    const webRoot = mkdtempSync(path.join(os.tmpdir(), 'blog-web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
    writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    writeFileSync(path.join(webRoot, 'assets', 'app-def456.js'), 'console.log("app");'.repeat(100));
    writeFileSync(path.join(webRoot, 'assets', 'app-def456.js.br'), brotliCompressSync('console.log("app");'.repeat(100)));
    writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["../../src/web/main.tsx"],"mappings":""}');
    app = await buildApp({ config: t.config, database: t.database, logger: false, webRoot });
    withMaps = await buildApp({ config: { ...t.config, serveSourceMaps: true }, database: t.database, logger: false, webRoot });
  });
  afterAll(async () => {
    await app.close();
    await withMaps.close();
  });

  it('keeps source maps on disk: not served unless SERVE_SOURCE_MAPS is on', async () => {
    const refused = await app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('src/web/main.tsx');
    const served = await withMaps.inject({ method: 'GET', url: '/assets/index-abc123.js.map' });
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('src/web/main.tsx');
  });

  it('never serves the page template as it is', async () => {
    const response = await app.inject({ method: 'GET', url: '/index.html' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<div id="root">');
  });

  it('serves hashed assets with long-lived immutable caching, compressed', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(['br', 'gzip']).toContain(response.headers['content-encoding']);
  });

  it("sends the build's precompressed copy of an asset when the browser takes Brotli", async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.rawPayload).toEqual(brotliCompressSync('console.log("app");'.repeat(100)));
    const plain = await app.inject({ method: 'GET', url: '/assets/app-def456.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("app");'.repeat(100));
  });

  it('answers a missing asset and unknown API paths with 404, not the app', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await app.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: 'NOT_FOUND' });
    const post = await app.inject({ method: 'POST', url: '/about' });
    expect(post.statusCode).toBe(404);
  });
});

describe('a page that fails to render', () => {
  it('answers 500 with a plain page that holds nothing of the error', async () => {
    const app = Fastify({ logger: false });
    const renderer: PageRenderer = {
      load: () => Promise.reject(new Error('secret detail at /srv/app/db.ts:42')),
      template: async () => '<!--app-head--><!--app-body--><!--app-state-->',
    };
    app.get('/', createPageHandler(app, { renderer, site: async () => ({ name: 'Site', publicUrl: 'http://localhost' }) }));
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('Something went wrong');
    expect(response.body).not.toMatch(/secret|db\.ts|at /);
    await app.close();
  });
});

describe('a rendered page', () => {
  it('is compressed when the browser accepts it, although pages answer from the not-found handler', async () => {
    const app = Fastify({ logger: false });
    await app.register(fastifyCompress, { threshold: 1024 });
    const renderer: PageRenderer = {
      load: async () => ({
        setApiTransport: () => undefined,
        renderPage: async () => ({ kind: 'page', status: 200, head: '<title>Home</title>', body: `<p>${'words '.repeat(2000)}</p>`, state: '{}', scripts: 'at-once' }),
      }),
      template: async () => '<!doctype html><head><!--app-head--></head><div id="root"><!--app-body--></div><!--app-state-->',
    };
    app.setNotFoundHandler(createPageHandler(app, { renderer, site: async () => ({ name: 'Site', publicUrl: 'http://localhost' }) }));
    const compressed = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.rawPayload.length).toBeLessThan(2000);
    const gzipped = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<title>Home</title>');
    await app.close();
  });
});

describe('filling the page template', () => {
  it('puts text containing replacement patterns in as written', () => {
    const html = fillTemplate('<head><!--app-head--></head><div id="root"><!--app-body--></div><!--app-state-->', {
      kind: 'page',
      status: 200,
      head: '<title>$& $1 $$</title>',
      body: "<p>$` $'</p>",
      state: '{}',
      scripts: 'at-once',
    });
    expect(html).toBe(`<head><title>$& $1 $$</title></head><div id="root"><p>$\` $'</p></div><script type="application/json" id="${PAGE_STATE_ID}">{}</script>`);
  });

  it('tells the page when to load the app', () => {
    const page = { kind: 'page', status: 200, head: '', body: '', state: '{}' } as const;
    const template = '<!doctype html><html lang="en"><head><!--app-head--></head><body><!--app-body--><!--app-state--></body></html>';
    expect(fillTemplate(template, { ...page, scripts: 'on-first-touch' })).toContain('<html data-scripts="on-first-touch" lang="en">');
    expect(fillTemplate(template, { ...page, scripts: 'at-once' })).toContain('<html data-scripts="at-once" lang="en">');
  });
});
