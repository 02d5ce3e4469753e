import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import GhostAdminAPI from '@tryghost/admin-api';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration } from '../../shared/integration-schema.js';
import { solidPng } from '../testing/image-fixtures.js';
import { tempDir } from '../testing/temp-dirs.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers } from '../testing/test-users.js';

type Api = ReturnType<typeof GhostAdminAPI>;
type Post = Record<string, unknown> & { id: string; slug: string; status: string; updated_at: string; html: string };

/**
 * Ghost's Admin API (issue 60) through the real `@tryghost/admin-api` client, against the test app
 * listening on a loopback port: an image uploaded, a post with it created as a draft from HTML,
 * published, edited, refused on a stale edit, deleted — each seen on the site; Lexical, scheduling,
 * authors by e-mail, browse with a status filter; Ghost's token rules and errors; no e-mail.
 */
describe('Ghost’s Admin API', () => {
  const t = useTestApp();
  const users = useSignedUpUsers(t, ['owner', 'writer']);
  const files = tempDir('admin-api-');
  let api: Api;
  let base: string;
  let adminKey: string;

  const page = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });
  const rejection = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('the call should be refused'), (error: Record<string, unknown>) => error);

  beforeAll(async () => {
    // Whoever took the seat first gives it to `owner`.
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('role', '=', 'owner').execute();
    await t.database.db.updateTable('user').set({ role: 'author', display_name: 'Wren Writer' }).where('id', '=', users.writer.id).execute();
    await t.database.db.updateTable('user').set({ role: 'owner' }).where('id', '=', users.owner.id).execute();
    const created = await t.app.inject({ method: 'POST', url: '/api/admin/integrations', payload: { name: 'Ulysses' }, headers: { origin: TEST_PUBLIC_URL, cookie: users.owner.cookie }, remoteAddress: randomIp() });
    expect(created.statusCode, created.body).toBe(201);
    adminKey = created.json<CreatedIntegration>().adminKey;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    api = GhostAdminAPI({ url: base, key: adminKey, version: 'v6.0' });
  });
  afterAll(async () => {
    await t.app.close();
    files.remove();
  });

  it('uploads an image, creates a draft with it from HTML, publishes, edits, refuses a stale edit and deletes — each seen on the site', async () => {
    const file = path.join(files.dir, 'harbour.png');
    writeFileSync(file, await solidPng(64, 48));
    const image = await api.images.upload({ file, ref: 'harbour.png' });
    expect(image.ref).toBe('harbour.png');
    expect(image.url).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/uploads/`));

    const draft = (await api.posts.add(
      { title: 'Harbour wall repairs', html: `<p>The wall is <strong>mended</strong>.</p><p><img src="${image.url}" alt="The wall"></p><script>alert(1)</script>`, tags: [{ name: 'Harbour' }, 'works'], feature_image: image.url },
      { source: 'html' },
    )) as Post;
    expect(draft).toMatchObject({ title: 'Harbour wall repairs', slug: 'harbour-wall-repairs', status: 'draft', published_at: null, tags: [{ slug: 'harbour' }, { slug: 'works' }], primary_author: { id: users.owner.id } });
    expect(draft.html).toContain('<strong>mended</strong>');
    expect(draft.html).not.toContain('<script');
    expect(draft.feature_image).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/uploads/`));
    expect(JSON.stringify(draft)).not.toContain(users.owner.email);
    expect((await page('/blog/harbour-wall-repairs')).statusCode).toBe(404);

    const published = (await api.posts.edit({ id: draft.id, updated_at: draft.updated_at, status: 'published' })) as Post;
    expect(published).toMatchObject({ status: 'published', url: `${TEST_PUBLIC_URL}/blog/harbour-wall-repairs` });
    const onSite = await page('/blog/harbour-wall-repairs');
    expect(onSite.statusCode).toBe(200);
    expect(onSite.body).toContain('<strong>mended</strong>');
    // The image the text shows is the blog's: kept while the blog is.
    const held = await t.database.db.selectFrom('inline_images').select('blog_id').execute();
    expect(held).toEqual([{ blog_id: draft.id }]);

    const edited = (await api.posts.edit({ id: draft.id, updated_at: published.updated_at, title: 'Harbour wall mended', html: '<p>All done.</p>' }, { source: 'html' })) as Post;
    expect(edited).toMatchObject({ title: 'Harbour wall mended', status: 'published' });
    expect((await page(`/api/blogs/${draft.id}`)).json()).toMatchObject({ title: 'Harbour wall mended', blog: 'All done.' });

    const stale = await rejection(api.posts.edit({ id: draft.id, updated_at: published.updated_at, title: 'Lost edit' }));
    expect(stale).toMatchObject({ name: 'UpdateCollisionError', type: 'UpdateCollisionError' });
    expect((await page(`/api/blogs/${draft.id}`)).json()).toMatchObject({ title: 'Harbour wall mended' });

    await api.posts.delete({ id: draft.id });
    expect((await page(`/api/blogs/${draft.id}`)).statusCode).toBe(404);
    expect(await rejection(api.posts.read({ id: draft.id }))).toMatchObject({ type: 'NotFoundError' });
  });

  it('takes Lexical as Ghost 6 sends it, schedules, writes in an author’s name by e-mail, and browses by status', async () => {
    const lexical = JSON.stringify({
      root: { type: 'root', version: 1, children: [{ type: 'paragraph', version: 1, children: [{ type: 'extended-text', version: 1, text: 'Tides ', format: 0 }, { type: 'extended-text', version: 1, text: 'turn', format: 2 }] }] },
    });
    const written = (await api.posts.add({ title: 'Tide notes', lexical, status: 'published', authors: [{ email: users.writer.email.toUpperCase() }] })) as Post;
    expect(written).toMatchObject({ status: 'published', primary_author: { id: users.writer.id, name: 'Wren Writer' } });
    expect(written.html).toContain('Tides <em>turn</em>');
    expect(JSON.stringify(written)).not.toContain(users.writer.email);
    expect((await page('/blog/tide-notes')).statusCode).toBe(200);

    const later = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = (await api.posts.add({ title: 'Spring tides', html: '<p>Soon.</p>', status: 'scheduled', published_at: later }, { source: 'html' })) as Post;
    expect(scheduled).toMatchObject({ status: 'scheduled', published_at: later });
    expect((await page('/blog/spring-tides')).statusCode).toBe(404);

    const drafts = await api.posts.browse({ filter: 'status:scheduled' });
    expect(drafts.map((post) => post.title)).toEqual(['Spring tides']);
    const all = await api.posts.browse({ limit: 1 });
    expect(all.meta.pagination).toMatchObject({ limit: 1, total: 2, pages: 2 });
    expect(await rejection(api.posts.add({ title: 'Nobody’s', html: '<p>x</p>', authors: [{ email: 'nobody@example.test' }] }, { source: 'html' }))).toMatchObject({ type: 'ValidationError' });
    expect(await api.site.read()).toMatchObject({ url: `${TEST_PUBLIC_URL}/` });
  });

  it('refuses tokens Ghost refuses: another secret, another audience, expired, living past five minutes, no token; and has no route to accounts', async () => {
    const [id, secret] = adminKey.split(':') as [string, string];
    const sign = (claims: { aud?: string; iat?: number; exp?: number }, key = secret) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: id, typ: 'JWT' })
        .setAudience(claims.aud ?? '/admin/')
        .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
        .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 300)
        .sign(Buffer.from(key, 'hex'));
    const now = Math.floor(Date.now() / 1000);
    const status = async (token: string | null) => {
      const response = await t.app.inject({ method: 'GET', url: '/ghost/api/admin/posts/', headers: token ? { authorization: `Ghost ${token}` } : {}, remoteAddress: randomIp() });
      return [response.statusCode, response.json().errors?.[0]?.type];
    };
    expect(await status(await sign({}))).toEqual([200, undefined]);
    expect(await status(await sign({}, 'ab'.repeat(32)))).toEqual([401, 'UnauthorizedError']);
    expect(await status(await sign({ aud: '/content/' }))).toEqual([401, 'UnauthorizedError']);
    expect(await status(await sign({ iat: now - 900, exp: now - 600 }))).toEqual([401, 'UnauthorizedError']);
    expect(await status(await sign({ iat: now, exp: now + 3600 }))).toEqual([401, 'UnauthorizedError']);
    expect(await status(null)).toEqual([401, 'UnauthorizedError']);
    expect(await rejection(api.users.browse())).toMatchObject({ type: 'NotFoundError' });

    // Wrong tokens are limited per address, like sign-in: guessing stops, a right token from elsewhere still works.
    const guesser = randomIp();
    const wrong = await sign({}, 'cd'.repeat(32));
    const guesses = [];
    for (let guess = 0; guess < 31; guess += 1) guesses.push((await t.app.inject({ method: 'GET', url: '/ghost/api/admin/site/', headers: { authorization: `Ghost ${wrong}` }, remoteAddress: guesser })).statusCode);
    expect(guesses.slice(0, 30).every((code) => code === 401)).toBe(true);
    expect(guesses[30]).toBe(429);
    expect(await status(await sign({}))).toEqual([200, undefined]);
  });
});
