import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RenderedPage, SiteInfo } from '../../shared/page-render.js';
import { createPageHandler } from './pages.js';

/** A page handler whose renderer answers `page`, on an app whose log lines are kept. */
async function pageApp(render: () => Promise<RenderedPage>) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  const renderer = { load: async () => ({ setApiTransport: () => undefined, renderPage: render }), template: async () => '<html><!--app-head--><!--app-body--><!--app-state--></html>' };
  const handler = createPageHandler(app, { renderer, site: async () => ({ publicUrl: 'http://localhost:3999' }) as SiteInfo });
  app.get('/', handler);
  await app.ready();
  return { app, lines };
}

describe('a page that answers 500', () => {
  it('logs why, with the stack, when a screen’s loader failed', async () => {
    const cause = new Error('the blog list could not be read');
    const { app, lines } = await pageApp(async () => ({ kind: 'page', status: 500, head: '', body: '<p>Something went wrong</p>', state: '{}', scripts: 'at-once', error: cause }));
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(cause.message);
    const logged = lines.find((line) => line.msg === 'page rendered as a server error') as { level: number; reqId: string; err: { message: string; stack: string } } | undefined;
    expect(logged).toMatchObject({ level: 50, err: { message: cause.message } });
    expect(logged!.err.stack).toContain('page-errors.test.ts');
    await app.close();
  });

  it('logs a failure of the rendering itself the same way', async () => {
    const { app, lines } = await pageApp(async () => {
      throw new Error('render exploded');
    });
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(500);
    expect(lines.find((line) => line.msg === 'page render failed')).toMatchObject({ level: 50, err: { message: 'render exploded' } });
    await app.close();
  });
});
