import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_STATE_ID } from '../../shared/page-render.js';
import type { PageRenderer } from '../pages/page-renderer.js';
import { createPageHandler, fillTemplate } from '../pages/pages.js';
import { buildApp, type App } from '../app.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

describe('serving the web app', () => {
  let t: TestApp;
  let app: App;
  beforeAll(async () => {
    t = await createTestApp();
    const webRoot = mkdtempSync(path.join(os.tmpdir(), 'blog-web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
    writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    app = await buildApp({ config: t.config, database: t.database, logger: false, webRoot });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
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
    app.get('/', createPageHandler(app, { renderer, site: { name: 'Site', publicUrl: 'http://localhost' } }));
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('Something went wrong');
    expect(response.body).not.toMatch(/secret|db\.ts|at /);
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
    });
    expect(html).toBe(`<head><title>$& $1 $$</title></head><div id="root"><p>$\` $'</p></div><script type="application/json" id="${PAGE_STATE_ID}">{}</script>`);
  });
});
