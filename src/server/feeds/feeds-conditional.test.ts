import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { App } from '../app.js';
import { isNotModified } from '../http/conditional-get.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { signUpUser, type TestUser } from '../testing/test-users.js';

/**
 * Conditional GET of the feeds and sitemaps: `ETag` and `Last-Modified` on every answer (the
 * date once its second has settled), `304` with no body while `If-None-Match` or
 * `If-Modified-Since` still matches, and both moved by a new, an edited and a deleted blog;
 * from the route and from the response cache alike.
 */

const URLS = ['/rss.xml', '/atom.xml', '/feed.json', '/sitemap.xml', '/sitemap-pages.xml', '/sitemap-blogs.xml'];

interface Validators {
  etag: string;
  lastModified: string;
  body: string;
}

const get = (app: App, url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

/** The answer's validators, waiting (up to 8 s) until its newest change is old enough to carry a date. */
async function settledValidators(app: App, url: string): Promise<Validators> {
  const deadline = Date.now() + 8_000;
  for (;;) {
    const response = await get(app, url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    const etag = response.headers.etag;
    expect(etag, url).toMatch(/^"[\w-]+"$/);
    const lastModified = response.headers['last-modified'];
    if (typeof lastModified === 'string') {
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      return { etag: String(etag), lastModified, body: response.body };
    }
    expect(Date.now(), `${url} never got a Last-Modified`).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function expectNotModified(app: App, url: string, headers: Record<string, string>, validators: Validators) {
  const response = await get(app, url, headers);
  expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(304);
  expect(response.body).toBe('');
  expect(response.headers.etag).toBe(validators.etag);
  expect(response.headers['last-modified']).toBe(validators.lastModified);
  return response;
}

async function expectModified(app: App, url: string, headers: Record<string, string>) {
  const response = await get(app, url, headers);
  expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(200);
  expect(response.body.length).toBeGreaterThan(0);
  return response;
}

const secondsBefore = (httpDate: string, seconds: number) => new Date(Date.parse(httpDate) - seconds * 1000).toUTCString();

describe('isNotModified', () => {
  const validators = { etag: '"abc"', lastModified: new Date('2026-01-02T03:04:05Z') };
  it.each([
    [{ 'if-none-match': '"abc"' }, true],
    [{ 'if-none-match': 'W/"abc"' }, true],
    [{ 'if-none-match': '"x", "abc"' }, true],
    [{ 'if-none-match': '*' }, true],
    [{ 'if-none-match': '"abd"' }, false],
    // If-None-Match decides alone when present.
    [{ 'if-none-match': '"abd"', 'if-modified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' }, false],
    [{ 'if-modified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' }, true],
    [{ 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' }, true],
    [{ 'if-modified-since': 'Fri, 02 Jan 2026 03:04:04 GMT' }, false],
    [{ 'if-modified-since': 'not a date' }, false],
    [{}, false],
  ])('%o → %s', (headers, expected) => {
    expect(isNotModified(headers, validators)).toBe(expected);
  });

  it('never answers 304 to If-Modified-Since when the answer has no date', () => {
    expect(isNotModified({ 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' }, { etag: '"abc"' })).toBe(false);
  });
});

describe.each([
  ['from the route', '0'],
  ['from the response cache', '8'],
])('conditional GET of the feeds and sitemaps, %s', (_label, cacheMb) => {
  let t: TestApp;
  let writer: TestUser;
  let first: Blog;

  const withOrigin = (user: TestUser) => ({ cookie: user.cookie, origin: TEST_PUBLIC_URL });

  beforeAll(async () => {
    t = await createTestApp({ RESPONSE_CACHE_MB: cacheMb });
    writer = await signUpUser(t.app);
    first = await postBlog(t.app, writer, { title: 'First', blog: 'The first blog.' });
    // Its event's follow-ups (the caches' own drop among them) are done before anything is kept.
    await t.settled();
  });
  afterAll(() => t.close());

  it.each(URLS)('%s sends ETag and Last-Modified and answers 304 while either still matches', async (url) => {
    const validators = await settledValidators(t.app, url);
    // Asked again, from memory when the cache is on.
    const again = await get(t.app, url);
    if (cacheMb !== '0') expect(again.headers['x-cache']).toBe('hit');
    expect(again.headers.etag).toBe(validators.etag);
    expect(again.headers['last-modified']).toBe(validators.lastModified);

    await expectNotModified(t.app, url, { 'if-none-match': validators.etag }, validators);
    await expectNotModified(t.app, url, { 'if-modified-since': validators.lastModified }, validators);
    await expectNotModified(t.app, url, { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() }, validators);
    await expectModified(t.app, url, { 'if-modified-since': secondsBefore(validators.lastModified, 1) });
    await expectModified(t.app, url, { 'if-none-match': '"something-else"', 'if-modified-since': validators.lastModified });
    const head = await t.app.inject({ method: 'HEAD', url, headers: { 'if-none-match': validators.etag } });
    expect(head.statusCode).toBe(304);
  });

  const feedUrls = [...URLS.filter((url) => url !== '/sitemap-pages.xml'), `/rss.xml?author=`, `/atom.xml?author=`, `/feed.json?author=`];
  const resolve = (url: string) => (url.endsWith('?author=') ? `${url}${writer.id}` : url);

  /** Each URL's validators now; then `change`; then each must answer 200 to the old ones, and date itself later. */
  async function expectChangedBy(change: () => Promise<void>, check: (url: string, body: string) => void) {
    const before = new Map<string, Validators>();
    for (const url of feedUrls.map(resolve)) before.set(url, await settledValidators(t.app, url));
    await change();
    for (const [url, old] of before) {
      const byTag = await expectModified(t.app, url, { 'if-none-match': old.etag });
      expect(byTag.headers.etag).not.toBe(old.etag);
      check(url, byTag.body);
      await expectModified(t.app, url, { 'if-modified-since': old.lastModified });
    }
    for (const [url, old] of before) {
      const after = await settledValidators(t.app, url);
      expect(Date.parse(after.lastModified), url).toBeGreaterThan(Date.parse(old.lastModified));
      await expectNotModified(t.app, url, { 'if-modified-since': after.lastModified }, after);
    }
  }

  it('a new blog changes them', async () => {
    let added: Blog | undefined;
    await expectChangedBy(
      async () => {
        added = await postBlog(t.app, writer, { title: 'Second', blog: 'Another blog.' });
      },
      // Feeds and sitemaps link a blog by its readable address (issue 58).
      (url, body) => expect(body, url).toContain(`/blog/${added!.slug}`),
    );
  });

  it('an edited blog changes them', async () => {
    await expectChangedBy(
      async () => {
        const form = new FormData();
        form.append('title', 'First, edited');
        form.append('blog', 'The first blog, edited.');
        const encoded = new Response(form);
        const response = await t.app.inject({
          method: 'PATCH',
          url: `/api/blogs/${first.id}`,
          headers: { ...withOrigin(writer), 'content-type': encoded.headers.get('content-type')! },
          payload: Buffer.from(await encoded.arrayBuffer()),
        });
        expect(response.statusCode, response.body).toBe(200);
      },
      (url, body) => {
        // The sitemaps list its new date, the feeds its new title.
        if (!url.includes('sitemap')) expect(body, url).toContain('First, edited');
      },
    );
  });

  it('a deleted blog changes them, though it leaves nothing to date', async () => {
    await expectChangedBy(
      async () => {
        const response = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${first.id}`, headers: withOrigin(writer) });
        expect(response.statusCode, response.body).toBe(204);
      },
      (url, body) => expect(body, url).not.toContain(first.id),
    );
  });

  it('a vote or a saved draft changes nothing a feed shows, so the date stays', async () => {
    const before = await settledValidators(t.app, '/rss.xml');
    const [blog] = (await get(t.app, '/api/blogs?page=1')).json<{ items: Blog[] }>().items;
    const voter = await signUpUser(t.app);
    const vote = await t.app.inject({ method: 'PUT', url: `/api/blogs/${blog!.id}/vote`, headers: withOrigin(voter), payload: { direction: 'up' } });
    expect(vote.statusCode, vote.body).toBe(200);
    const form = new FormData();
    form.append('title', 'Draft');
    form.append('blog', 'Not yet.');
    form.append('status', 'draft');
    const encoded = new Response(form);
    const draft = await t.app.inject({
      method: 'POST',
      url: '/api/blogs',
      headers: { ...withOrigin(writer), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(draft.statusCode, draft.body).toBe(201);
    await expectNotModified(t.app, '/rss.xml', { 'if-modified-since': before.lastModified }, before);
    await expectNotModified(t.app, '/rss.xml', { 'if-none-match': before.etag }, before);
  });
});
