import { brotliDecompressSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog, BlogPage } from '../../shared/blog-schema.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { multipart } from '../testing/multipart.js';
import { postBlog } from '../testing/test-blogs.js';
import { signUpUser, type TestUser } from '../testing/test-users.js';
import { ResponseCache } from './response-cache.js';
import { applyCacheDeclarations, cachedAs, changes, LISTS, neverCached, privateAnswer } from './route-caching.js';

const entry = (text: string, tags: string[]) => ({ body: Buffer.from(text), contentType: 'text/plain', tags });

describe('the response cache', () => {
  it('keeps its bytes under the bound, dropping the least recently used', () => {
    const cache = new ResponseCache(4_000);
    for (let i = 0; i < 10; i++) cache.set(`/api/blogs?page=${i}`, cache.generation, entry('x'.repeat(600), ['lists']));
    expect(cache.size).toBeLessThanOrEqual(4_000);
    expect(cache.get('/api/blogs?page=0')).toBeUndefined();
    expect(cache.get('/api/blogs?page=9')?.body.toString()).toBe('x'.repeat(600));
  });

  it('drops exactly the entries of the invalidated tags', () => {
    const cache = new ResponseCache(1_000_000);
    cache.set('/api/blogs?page=1', cache.generation, entry('list', ['lists']));
    cache.set('/api/blogs/a', cache.generation, entry('a', ['blog:a']));
    cache.set('/api/blogs/b', cache.generation, entry('b', ['blog:b']));
    cache.invalidate(['blog:a']);
    expect(cache.get('/api/blogs/a')).toBeUndefined();
    expect(cache.get('/api/blogs/b')).toBeDefined();
    expect(cache.get('/api/blogs?page=1')).toBeDefined();
    cache.invalidate(['*']);
    expect(cache.get('/api/blogs/b')).toBeUndefined();
  });

  it('does not store an answer computed while a write landed', () => {
    const cache = new ResponseCache(1_000_000);
    const startedAt = cache.generation;
    cache.invalidate(['blog:a']);
    expect(cache.set('/api/blogs/a', startedAt, entry('old', ['blog:a']))).toBeUndefined();
    expect(cache.get('/api/blogs/a')).toBeUndefined();
  });

  it('gives the same bytes the same strong ETag', () => {
    const cache = new ResponseCache(1_000_000);
    const one = cache.set('/a', cache.generation, entry('same', ['static']))!;
    const two = cache.set('/b', cache.generation, entry('same', ['static']))!;
    expect(one.etag).toMatch(/^"[\w-]+"$/);
    expect(one.etag).toBe(two.etag);
  });

  it('refuses a GET route that declares nothing about caching, and takes one that does', async () => {
    const app = Fastify();
    await app.register(async (features) => {
      applyCacheDeclarations(features);
      features.get('/kept', { config: cachedAs(LISTS) }, async () => 'kept');
      features.get('/private', { config: neverCached }, async () => 'mine');
      features.post('/write', { config: changes(LISTS) }, async () => 'written');
      expect(() => features.get('/silent', async () => 'silent')).toThrow(/GET \/silent declares no caching/);
    });
    await app.close();
  });

  it('marks the answers of a privateAnswer route private, its errors too', async () => {
    const app = Fastify();
    await app.register(async (features) => {
      applyCacheDeclarations(features);
      features.get('/mine', { config: privateAnswer }, async () => 'mine');
      features.get('/refused', { config: privateAnswer }, async () => {
        throw Object.assign(new Error('sign in'), { statusCode: 401 });
      });
      features.get('/public', { config: neverCached }, async () => 'anyone');
    });
    expect((await app.inject('/mine')).headers['cache-control']).toBe('private, no-store');
    const refused = await app.inject('/refused');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('private, no-store');
    expect((await app.inject('/public')).headers['cache-control']).toBeUndefined();
    await app.close();
  });
});

describe('the response cache in the app', () => {
  let t: TestApp;
  let writer: TestUser;

  const anonymous = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const asUser = (user: TestUser, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: user.cookie, origin: TEST_PUBLIC_URL }, ...(payload ? { payload } : {}) });

  /** A new blog, once its event's follow-ups are done (the caches' own drop among them, which would otherwise land after what a test caches next). */
  const createBlog = async (user: TestUser, title: string) => {
    const blog = await postBlog(t.app, user, { title, blog: `The text of ${title}.`, tags: 'declared' });
    await t.settled();
    return blog;
  };
  const editForm = () => multipart({ title: 'Declared, edited', blog: 'New text.' });

  beforeAll(async () => {
    t = await createTestApp({ RESPONSE_CACHE_MB: '8' });
    writer = await signUpUser(t.app);
  });
  afterAll(() => t.close());

  it('answers a repeated anonymous read from memory, with a strong ETag and 304 on revalidation', async () => {
    const blog = await createBlog(writer, 'Cached once');
    const first = await anonymous(`/api/blogs/${blog.id}`);
    expect(first.headers['x-cache']).toBe('miss');
    const second = await anonymous(`/api/blogs/${blog.id}`);
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    const revalidated = await anonymous(`/api/blogs/${blog.id}`, { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    const compressed = await anonymous(`/api/blogs/${blog.id}`, { 'accept-encoding': 'br, gzip' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(first.body);
  });

  it('sends the security headers with a hit, and its own headers for each encoding', async () => {
    const miss = await anonymous('/api/blogs?page=1');
    const hit = await anonymous('/api/blogs?page=1');
    expect(hit.headers['x-cache']).toBe('hit');
    for (const name of ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy']) {
      expect(hit.headers[name]).toBe(miss.headers[name]);
      expect(hit.headers[name]).toBeTruthy();
    }
    expect(hit.headers['content-length']).toBe(String(Buffer.byteLength(miss.body)));
    const gzip = await anonymous('/api/blogs?page=1', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-length']).toBe(String(gzip.rawPayload.length));
    const head = await t.app.inject({ method: 'HEAD', url: '/api/blogs?page=1' });
    expect(head.headers['x-cache']).toBe('hit');
    expect(head.body).toBe('');
    const revalidated = await anonymous('/api/blogs?page=1', { 'if-none-match': String(miss.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['content-security-policy']).toBe(miss.headers['content-security-policy']);
  });

  it("keeps a client's read limit on answers from the cache, counted per address", async () => {
    // RATE_LIMIT_SCALE makes the read limit 3 a minute.
    const limited = await createTestApp({ RESPONSE_CACHE_MB: '8', RATE_LIMIT_SCALE: String(3 / 600) });
    try {
      const read = (remoteAddress: string) => limited.app.inject({ method: 'GET', url: '/api/blogs?page=1', remoteAddress });
      expect((await read('10.0.0.1')).headers['x-cache']).toBe('miss');
      for (let i = 0; i < 3; i++) expect((await read('10.0.0.2')).headers['x-cache']).toBe('hit');
      const refused = await read('10.0.0.2');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['content-security-policy']).toBeTruthy();
      // Another address is still served from memory.
      expect((await read('10.0.0.3')).headers['x-cache']).toBe('hit');
    } finally {
      await limited.close();
    }
  });

  it('keeps what each route declares it shows, and nothing a route declares never kept', async () => {
    const blog = await createBlog(writer, 'Declared');
    const kept = [
      '/api/blogs?page=2&sort=new',
      '/api/blogs?tag=declared',
      `/api/blogs/${blog.id}`,
      `/api/blogs/${blog.id}/comments`,
      `/api/authors/${writer.id}/blogs?page=1`,
      '/api/search?searchTerm=Declared',
      '/api/search?searchTerm=Declared&in=all',
      '/api/tags',
      '/api/tag-suggestions?prefix=d',
      '/rss.xml',
      '/atom.xml?author=' + writer.id,
      '/feed.json',
      '/sitemap.xml',
      '/robots.txt',
    ];
    for (const url of kept) {
      expect((await anonymous(url)).statusCode, url).toBe(200);
      expect((await anonymous(url)).headers['x-cache'], url).toBe('hit');
    }
    for (const url of ['/api/health', '/api/auth-providers', '/api/openapi.json']) {
      expect((await anonymous(url)).statusCode, url).toBe(200);
      expect((await anonymous(url)).headers['x-cache'], url).toBeUndefined();
    }
    // A blog's change drops its own answers and the lists, not another blog's.
    const other = await createBlog(writer, 'Untouched');
    await anonymous(`/api/blogs/${other.id}`);
    const form = await editForm();
    const edited = await t.app.inject({ method: 'PATCH', url: `/api/blogs/${blog.id}`, headers: { cookie: writer.cookie, origin: TEST_PUBLIC_URL, ...form.headers }, payload: form.payload });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await anonymous(`/api/blogs/${blog.id}`)).headers['x-cache']).toBe('miss');
    expect((await anonymous(`/api/blogs/${blog.id}/comments`)).headers['x-cache']).toBe('miss');
    expect((await anonymous('/rss.xml')).headers['x-cache']).toBe('miss');
    expect((await anonymous(`/api/blogs/${other.id}`)).headers['x-cache']).toBe('hit');
  });

  it('never answers a signed-in request from the cache, nor stores one', async () => {
    const blog = await createBlog(writer, 'Seen by its writer');
    const signedIn = await asUser(writer, 'GET', `/api/blogs/${blog.id}`);
    expect(signedIn.headers['x-cache']).toBeUndefined();
    // Nothing was stored by the signed-in read: the first anonymous one is a miss.
    expect((await anonymous(`/api/blogs/${blog.id}`)).headers['x-cache']).toBe('miss');
    expect((await anonymous(`/api/blogs/${blog.id}`)).headers['x-cache']).toBe('hit');
    // And a cached anonymous answer is never given to the signed-in reader.
    const again = await asUser(writer, 'GET', `/api/blogs/${blog.id}`);
    expect(again.headers['x-cache']).toBeUndefined();
  });

  it('shows a vote and a deletion to the next anonymous reader at once', async () => {
    const blog = await createBlog(writer, 'Changing blog');
    const voter = await signUpUser(t.app);
    await anonymous(`/api/blogs/${blog.id}`);
    await anonymous('/api/blogs?page=1');
    expect((await anonymous(`/api/blogs/${blog.id}`)).headers['x-cache']).toBe('hit');

    expect((await asUser(voter, 'PUT', `/api/blogs/${blog.id}/vote`, { direction: 'up' })).statusCode).toBe(200);
    const afterVote = await anonymous(`/api/blogs/${blog.id}`);
    expect(afterVote.headers['x-cache']).toBe('miss');
    expect(afterVote.json<Blog>().upvotes).toBe(1);
    const list = (await anonymous('/api/blogs?page=1')).json<BlogPage>();
    expect(list.items.find((item) => item.id === blog.id)?.upvotes).toBe(1);

    expect((await asUser(writer, 'DELETE', `/api/blogs/${blog.id}`)).statusCode).toBe(204);
    expect((await anonymous(`/api/blogs/${blog.id}`)).statusCode).toBe(404);
    expect((await anonymous('/api/blogs?page=1')).json<BlogPage>().items.map((item) => item.id)).not.toContain(blog.id);
  });

  it('forgets everything when an account is deleted', async () => {
    const leaving = await signUpUser(t.app);
    const blog = await createBlog(leaving, 'Leaving with its author');
    await anonymous(`/api/blogs/${blog.id}`);
    expect((await anonymous(`/api/blogs/${blog.id}`)).headers['x-cache']).toBe('hit');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { cookie: leaving.cookie, origin: TEST_PUBLIC_URL },
      payload: { password: leaving.password },
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect((await anonymous(`/api/blogs/${blog.id}`)).statusCode).toBe(404);
  });
});
