import type { AddressInfo } from 'node:net';
import GhostContentAPI from '@tryghost/content-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration } from '../../shared/integration-schema.js';
import { blogWrites } from '../testing/blog-writes.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers, type TestUser } from '../testing/test-users.js';

type Api = ReturnType<typeof GhostContentAPI>;
type Post = Record<string, unknown> & { id: string; slug: string; title: string; tags?: { slug: string }[]; authors?: Record<string, unknown>[] };
type Listed = Post[] & { meta: { pagination: Record<string, unknown> } };

/**
 * Ghost's Content API (issue 60) through the real `@tryghost/content-api` client, against the
 * test app listening on a loopback port: browse with limit, page, filter, order, fields and
 * include; read by id and slug; pages, tags, authors, settings; published blogs only; no e-mail;
 * Ghost's errors for a missing or wrong key; CORS and the response cache.
 */
describe('Ghost’s Content API', () => {
  // The response cache on (the test kit turns it off): its hits must carry CORS, and a change of keys must drop them.
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' });
  const users = useSignedUpUsers(t, ['admin', 'writer', 'other']);
  const writes = blogWrites(t);
  let api: Api;
  let base: string;
  let key: string;
  let integrationId: string;
  let handles: Record<'writer' | 'other', string>;
  let first: { id: string; slug: string };

  const call = (user: TestUser, method: 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as never, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, remoteAddress: randomIp() });

  beforeAll(async () => {
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', users.admin.id).execute();
    await t.database.db.updateTable('user').set({ display_name: 'Wren Writer' }).where('id', '=', users.writer.id).execute();
    const rows = await t.database.db.selectFrom('user').select(['id', 'handle']).where('id', 'in', [users.writer.id, users.other.id]).execute();
    handles = { writer: rows.find((row) => row.id === users.writer.id)!.handle, other: rows.find((row) => row.id === users.other.id)!.handle };
    first = await writes.create(users.writer, { title: 'Harbour lights', blog: 'The **first** one.', tags: 'sea, night' });
    await writes.create(users.writer, { title: 'Tide tables', blog: 'Second.', tags: 'sea' });
    await writes.create(users.other, { title: 'Mountain air', blog: 'Third.', tags: 'hills' });
    await writes.create(users.writer, { title: 'Secret draft', blog: 'Not yet.', tags: 'sea', status: 'draft' });
    expect((await call(users.admin, 'POST', '/api/admin/pages', { title: 'Colophon', slug: 'colophon', markdown: 'Made *here*.' })).statusCode).toBe(201);
    const created = (await call(users.admin, 'POST', '/api/admin/integrations', { name: 'Front end' })).json<CreatedIntegration>();
    key = created.integration.contentKey;
    integrationId = created.integration.id;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    api = GhostContentAPI({ url: base, key, version: 'v5.0' });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('browses the published posts, newest first, in Ghost’s shape with pagination, never a draft or an e-mail', async () => {
    const posts = (await api.posts.browse({ include: 'tags,authors' })) as unknown as Listed;
    expect(posts.map((post) => post.title)).toEqual(['Mountain air', 'Tide tables', 'Harbour lights']);
    expect(posts.meta.pagination).toEqual({ page: 1, limit: 15, pages: 1, total: 3, next: null, prev: null });
    const harbour = posts[2]!;
    expect(harbour).toMatchObject({
      id: first.id,
      uuid: first.id,
      slug: first.slug,
      html: expect.stringContaining('<strong>first</strong>'),
      excerpt: expect.stringContaining('first'),
      feature_image: null,
      url: `${TEST_PUBLIC_URL}/blog/${first.slug}`,
      reading_time: expect.any(Number),
      published_at: expect.stringMatching(/^\d{4}-/),
      updated_at: expect.stringMatching(/^\d{4}-/),
      primary_tag: expect.objectContaining({ slug: 'sea', name: 'sea' }),
      primary_author: expect.objectContaining({ name: 'Wren Writer', slug: handles.writer }),
    });
    expect(harbour.tags!.map((tag) => tag.slug)).toEqual(['sea', 'night']);
    expect(harbour.authors).toHaveLength(1);
    expect(JSON.stringify(posts)).not.toContain('@');
  });

  it('pages with limit and page, orders, filters by tag and author, and picks fields', async () => {
    const page2 = (await api.posts.browse({ limit: 2, page: 2 })) as unknown as Listed;
    expect(page2.map((post) => post.title)).toEqual(['Harbour lights']);
    expect(page2.meta.pagination).toEqual({ page: 2, limit: 2, pages: 2, total: 3, next: null, prev: 1 });
    expect(((await api.posts.browse({ order: 'title asc' })) as unknown as Listed).map((post) => post.title)).toEqual(['Harbour lights', 'Mountain air', 'Tide tables']);
    const sea = (await api.posts.browse({ filter: 'tag:sea' })) as unknown as Listed;
    expect(sea.map((post) => post.title)).toEqual(['Tide tables', 'Harbour lights']);
    expect(sea.meta.pagination.total).toBe(2);
    expect(((await api.posts.browse({ filter: `author:${handles.other}` })) as unknown as Listed).map((post) => post.title)).toEqual(['Mountain air']);
    expect(((await api.posts.browse({ filter: `tag:sea+tag:night` })) as unknown as Listed).map((post) => post.title)).toEqual(['Harbour lights']);
    expect(((await api.posts.browse({ filter: `tag:hills,tag:night` })) as unknown as Listed).map((post) => post.title)).toEqual(['Mountain air', 'Harbour lights']);
    expect(((await api.posts.browse({ filter: 'tag:[hills,night]' })) as unknown as Listed).map((post) => post.title)).toEqual(['Mountain air', 'Harbour lights']);
    const slim = (await api.posts.browse({ fields: 'title,slug' })) as unknown as Listed;
    expect(Object.keys(slim[0]!).sort()).toEqual(['slug', 'title']);
    await expect(api.posts.browse({ filter: 'status:draft' })).rejects.toMatchObject({ name: 'BadRequestError' });
  });

  it('reads a post by id and by slug; a draft or unknown one is not found', async () => {
    expect(await api.posts.read({ id: first.id })).toMatchObject({ title: 'Harbour lights' });
    expect(await api.posts.read({ slug: first.slug }, { include: 'authors' })).toMatchObject({ id: first.id, primary_author: { slug: handles.writer } });
    const draft = await t.database.db.selectFrom('blogs').select(['id', 'slug']).where('title', '=', 'Secret draft').executeTakeFirstOrThrow();
    await expect(api.posts.read({ id: draft.id })).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(api.posts.read({ slug: draft.slug })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('lists the site’s pages, tags with their counts, authors without e-mail, and the settings', async () => {
    const pages = (await api.pages.browse()) as unknown as Listed;
    expect(pages.map((page) => page.slug)).toContain('colophon');
    expect(await api.pages.read({ slug: 'colophon' })).toMatchObject({ title: 'Colophon', html: expect.stringContaining('<em>here</em>'), url: `${TEST_PUBLIC_URL}/page/colophon` });
    const tags = (await api.tags.browse({ include: 'count.posts' })) as unknown as (Record<string, unknown> & { slug: string })[];
    expect(tags.map((tag) => [tag.slug, (tag.count as { posts: number }).posts])).toEqual([
      ['hills', 1],
      ['night', 1],
      ['sea', 2],
    ]);
    const authors = (await api.authors.browse({ include: 'count.posts' })) as unknown as Record<string, unknown>[];
    expect(authors.map((author) => author.slug).sort()).toEqual([handles.other, handles.writer].sort());
    expect(JSON.stringify(authors)).not.toContain('@');
    expect(await api.authors.read({ slug: handles.writer })).toMatchObject({ name: 'Wren Writer', url: `${TEST_PUBLIC_URL}/author?id=${users.writer.id}` });
    expect(await api.settings.browse()).toMatchObject({ title: expect.any(String), url: `${TEST_PUBLIC_URL}/` });
  });

  it('answers Ghost’s errors to a missing or wrong key, lets browsers read it, and keeps answers until the keys change', async () => {
    const missing = await fetch(`${base}/ghost/api/content/posts/`);
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({ errors: [expect.objectContaining({ type: 'NoPermissionError', message: expect.any(String) })] });
    await expect(GhostContentAPI({ url: base, key: 'a'.repeat(26), version: 'v5.0' }).posts.browse()).rejects.toMatchObject({ name: 'UnauthorizedError', response: { status: 401 } });

    const url = `${base}/ghost/api/content/posts/?key=${key}&limit=1`;
    const once = await fetch(url, { headers: { origin: 'https://elsewhere.example' } });
    const twice = await fetch(url, { headers: { origin: 'https://elsewhere.example' } });
    expect(once.headers.get('access-control-allow-origin')).toBe('*');
    expect(once.headers.get('x-cache')).toBe('miss');
    expect(once.headers.get('etag')).toBeTruthy();
    expect(twice.headers.get('x-cache')).toBe('hit');
    expect(twice.headers.get('access-control-allow-origin')).toBe('*');
    expect(twice.headers.get('etag')).toBe(once.headers.get('etag'));
    const preflight = await fetch(`${base}/ghost/api/content/posts/`, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'accept-version' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Accept-Version/);

    // A new post shows at once (the blog's write drops the kept lists).
    await writes.create(users.other, { title: 'Fresh snow', blog: 'Fourth.' });
    expect(((await (await fetch(url)).json()) as { posts: Post[] }).posts[0]!.title).toBe('Fresh snow');
    // Regenerated keys: the old one is refused, kept answers included.
    expect((await call(users.admin, 'POST', `/api/admin/integrations/${integrationId}/regenerate`)).statusCode).toBe(200);
    expect((await fetch(url)).status).toBe(401);
  });
});
