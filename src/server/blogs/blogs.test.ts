import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Blog, BlogPage } from '../../shared/blog-schema.js';
import { BLOG_MAX_LENGTH, TITLE_MAX_LENGTH } from '../../shared/constants.js';
import { messages } from '../../shared/messages.js';
import { buildApp, type App } from '../app.js';
import { MAX_UPLOAD_BYTES } from '../images/image-processing.js';
import { localUploadsDir } from '../storage/local-storage.js';
import { createImageStorage, type ImageStorage } from '../storage/storage.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { signUpUser, type TestUser, useSignedUpUsers } from '../testing/test-users.js';
import { noisyJpeg, pngBomb, solidPng } from '../testing/image-fixtures.js';
import { multipart, type FilePart } from '../testing/multipart.js';

describe('blogs API', () => {
  const t = useTestApp();
  const { owner, stranger } = useSignedUpUsers(t, ['owner', 'stranger']);
  let uploadsDir: string;

  beforeAll(async () => {
    uploadsDir = localUploadsDir(t.config);
  });

  async function storedFiles(): Promise<string[]> {
    const folder = path.join(uploadsDir, 'blogs');
    return existsSync(folder) ? (await readdir(folder)).sort() : [];
  }

  async function send(
    method: 'POST' | 'PATCH',
    url: string,
    user: TestUser | null,
    fields: Record<string, string>,
    file?: FilePart,
    app: App = t.app,
  ) {
    const body = await multipart(fields, file);
    return app.inject({
      method,
      url,
      payload: body.payload,
      headers: { origin: TEST_PUBLIC_URL, ...body.headers, ...(user ? { cookie: user.cookie } : {}) },
    });
  }

  async function createBlog(user: TestUser, fields = { title: 'A title', blog: 'Some content' }, file?: FilePart): Promise<Blog> {
    const response = await send('POST', '/api/blogs', user, fields, file);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Blog>();
  }

  async function getPage(page: number, user?: TestUser): Promise<BlogPage> {
    const response = await t.app.inject({ method: 'GET', url: `/api/blogs?page=${page}`, headers: user ? { cookie: user.cookie } : {} });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BlogPage>();
  }

  /** Rows straight into the table, with chosen votes and times, to test the order. */
  async function seedBlogs(rows: Array<{ title: string; upvotes?: number; downvotes?: number; createdAt?: string; id?: string }>) {
    await t.database.db
      .insertInto('blogs')
      .values(
        rows.map((row) => ({
          ...(row.id ? { id: row.id } : {}),
          user_id: owner.id,
          title: row.title,
          body: `Body of ${row.title}`,
          upvotes: row.upvotes ?? 0,
          downvotes: row.downvotes ?? 0,
          ...(row.createdAt ? { created_at: new Date(row.createdAt) } : {}),
        })),
      )
      .execute();
  }

  describe('creating and reading', () => {
    it('creates a blog for the signed-in user and answers 201 with it', async () => {
      const blog = await createBlog(owner, { title: '  My first blog  ', blog: 'Line one\nLine two' });
      expect(blog).toMatchObject({
        title: 'My first blog',
        blog: 'Line one\nLine two',
        author: owner.email,
        userId: owner.id,
        imageUrl: null,
        upvotes: 0,
        downvotes: 0,
        rating: 0,
        myVote: null,
      });
      expect(blog.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(blog.createdAt)).toBeGreaterThan(Date.now() - 60_000);

      const read = await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(blog);
    });

    it('refuses to create without a session (401) and from another site (403)', async () => {
      const before = await t.database.db.selectFrom('blogs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      const anonymous = await send('POST', '/api/blogs', null, { title: 'x', blog: 'y' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: 'UNAUTHORIZED' });

      const body = await multipart({ title: 'x', blog: 'y' });
      const crossSite = await t.app.inject({
        method: 'POST',
        url: '/api/blogs',
        payload: body.payload,
        headers: { ...body.headers, cookie: owner.cookie, origin: 'https://evil.example' },
      });
      expect(crossSite.statusCode).toBe(403);
      const sameSite = await t.app.inject({
        method: 'POST',
        url: '/api/blogs',
        payload: body.payload,
        headers: { ...body.headers, cookie: owner.cookie, origin: TEST_PUBLIC_URL },
      });
      expect(sameSite.statusCode).toBe(201);
      const after = await t.database.db.selectFrom('blogs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n + 1);
    });

    it('validates the text with the spec messages and the length caps', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ blog: 'content' }, messages.addTitle],
        [{ title: '   ', blog: 'content' }, messages.addTitle],
        [{ title: 'title' }, messages.addContent],
        [{ title: 'title', blog: ' \n ' }, messages.addContent],
        [{}, messages.addTitle],
        [{ title: 'x'.repeat(TITLE_MAX_LENGTH + 1), blog: 'content' }, `The title is too long: at most ${TITLE_MAX_LENGTH} characters.`],
        [{ title: 'title', blog: 'x'.repeat(BLOG_MAX_LENGTH + 1) }, `The content is too long: at most ${BLOG_MAX_LENGTH} characters.`],
      ];
      for (const [fields, message] of cases) {
        const response = await send('POST', '/api/blogs', owner, fields);
        expect(response.statusCode, JSON.stringify(fields).slice(0, 80)).toBe(400);
        expect(response.json()).toEqual({ error: 'BAD_REQUEST', message });
      }
      // At the caps exactly, the blog is accepted.
      await createBlog(owner, { title: 'x'.repeat(TITLE_MAX_LENGTH), blog: 'y'.repeat(BLOG_MAX_LENGTH) });
    });

    it('refuses a body that is not multipart with 415, and a second file with 400', async () => {
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/blogs',
        headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie, 'content-type': 'application/json' },
        payload: { title: 'a', blog: 'b' },
      });
      expect(json.statusCode).toBe(415);
      expect(json.json().message).toMatch(/multipart\/form-data/);

      const png = await solidPng(10, 10);
      const form = new FormData();
      form.append('title', 'a');
      form.append('blog', 'b');
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'one.png');
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'two.png');
      const encoded = new Response(form);
      const filesBefore = await storedFiles();
      const twoFiles = await t.app.inject({
        method: 'POST',
        url: '/api/blogs',
        headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie, 'content-type': encoded.headers.get('content-type')! },
        payload: Buffer.from(await encoded.arrayBuffer()),
      });
      expect(twoFiles.statusCode).toBe(400);
      expect(twoFiles.json().message).toBe('Send at most one image.');
      expect(await storedFiles()).toEqual(filesBefore);
    });

    it('answers 404 for an unknown id and for a malformed one, never 500', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1', "1' or '1'='1", 'x'.repeat(99)]) {
        for (const method of ['GET', 'DELETE'] as const) {
          const response = await t.app.inject({ method, url: `/api/blogs/${id}`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie } });
          expect(response.statusCode, `${method} ${id}`).toBe(404);
          expect(response.json()).toEqual({ error: 'NOT_FOUND', message: messages.blogDoesNotExist });
        }
        const patch = await send('PATCH', `/api/blogs/${id}`, owner, { title: 'a', blog: 'b' });
        expect(patch.statusCode, `PATCH ${id}`).toBe(404);
      }
      // A NUL is bad input wherever it is (http/bad-characters.ts): 400, not a search for the blog.
      expect((await t.app.inject({ method: 'GET', url: '/api/blogs/%00' })).statusCode).toBe(400);
      // Past Fastify's parameter length, the router itself refuses the URL.
      expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${'x'.repeat(500)}` })).statusCode).toBe(414);
    });

    it("shows the caller's own vote and the counts", async () => {
      const blog = await createBlog(owner, { title: 'Voted on', blog: 'content' });
      await t.database.db
        .insertInto('votes')
        .values([
          { blog_id: blog.id, user_id: stranger.id, direction: 'up' },
          { blog_id: blog.id, user_id: owner.id, direction: 'down' },
        ])
        .execute();
      const asStranger = await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}`, headers: { cookie: stranger.cookie } });
      expect(asStranger.json()).toMatchObject({ upvotes: 1, downvotes: 1, rating: 0, myVote: 'up' });
      const asOwner = await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}`, headers: { cookie: owner.cookie } });
      expect(asOwner.json()).toMatchObject({ myVote: 'down' });
      const anonymous = await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` });
      expect(anonymous.json()).toMatchObject({ myVote: null });
    });
  });

  it('documents the blog routes in OpenAPI', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
    expect(Object.keys(paths['/api/blogs']!)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/api/blogs/{id}']!)).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
  });

  describe('the home list', () => {
    it('orders by rating, then newest, then id, and pages by 5 with an exact hasMore', async () => {
      await t.database.db.deleteFrom('blogs').execute();
      const empty = await getPage(1);
      expect(empty).toEqual({ items: [], page: 1, pageSize: 5, hasMore: false });

      const sameTime = '2026-01-01T12:00:00.000Z';
      await seedBlogs([
        { title: 'rated 3', upvotes: 3 },
        { title: 'rated -2', downvotes: 2 },
        { title: 'old rated 1', upvotes: 1, createdAt: '2025-01-01T00:00:00Z' },
        { title: 'new rated 1', upvotes: 2, downvotes: 1, createdAt: '2026-06-01T00:00:00Z' },
        { title: 'tie a', createdAt: sameTime, id: '00000000-0000-4000-8000-00000000000a' },
        { title: 'tie b', createdAt: sameTime, id: '00000000-0000-4000-8000-00000000000b' },
        { title: 'newest rated 0', createdAt: '2026-12-31T00:00:00Z' },
      ]);
      const first = await getPage(1);
      expect(first.items.map((b) => b.title)).toEqual(['rated 3', 'new rated 1', 'old rated 1', 'newest rated 0', 'tie b']);
      expect(first.hasMore).toBe(true);
      const second = await getPage(2);
      expect(second.items.map((b) => b.title)).toEqual(['tie a', 'rated -2']);
      expect(second).toMatchObject({ page: 2, pageSize: 5, hasMore: false });
      expect(first.items[0]).toMatchObject({ upvotes: 3, downvotes: 0, rating: 3, author: owner.email });
    });

    it('knows the last page exactly with 5 and with 10 blogs', async () => {
      await t.database.db.deleteFrom('blogs').execute();
      await seedBlogs(Array.from({ length: 5 }, (_, i) => ({ title: `blog ${i}` })));
      const onlyPage = await getPage(1);
      expect(onlyPage.items).toHaveLength(5);
      expect(onlyPage.hasMore).toBe(false);

      await seedBlogs(Array.from({ length: 5 }, (_, i) => ({ title: `blog ${i + 5}` })));
      const first = await getPage(1);
      const second = await getPage(2);
      expect(first.items).toHaveLength(5);
      expect(first.hasMore).toBe(true);
      expect(second.items).toHaveLength(5);
      expect(second.hasMore).toBe(false);
      const ids = new Set([...first.items, ...second.items].map((b) => b.id));
      expect(ids.size).toBe(10);
      expect(await getPage(3)).toEqual({ items: [], page: 3, pageSize: 5, hasMore: false });
    });

    it('refuses a page that is not a positive whole number with 400', async () => {
      for (const page of ['0', '-1', '1.5', 'abc', '99999999']) {
        const response = await t.app.inject({ method: 'GET', url: `/api/blogs?page=${page}` });
        expect(response.statusCode, page).toBe(400);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/blogs' })).json()).toMatchObject({ page: 1 });
    });
  });

  describe('changing and deleting', () => {
    it('lets the owner change title and content, keeping the image when none is sent', async () => {
      const blog = await createBlog(owner, { title: 'Before', blog: 'old' }, { data: await solidPng(40, 30), filename: 'keep.png' });
      const response = await send('PATCH', `/api/blogs/${blog.id}`, owner, { title: 'After', blog: 'new\ncontent' });
      expect(response.statusCode, response.body).toBe(200);
      const updated = response.json<Blog>();
      expect(updated).toMatchObject({ id: blog.id, title: 'After', blog: 'new\ncontent', imageUrl: blog.imageUrl });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(blog.updatedAt));
      expect(updated.createdAt).toBe(blog.createdAt);
    });

    it("refuses another user's session with 403 and no session with 401, and changes nothing", async () => {
      const blog = await createBlog(owner, { title: 'Mine', blog: 'mine' }, { data: await solidPng(20, 20), filename: 'mine.png' });
      const files = await storedFiles();

      const patchByStranger = await send('PATCH', `/api/blogs/${blog.id}`, stranger, { title: 'Hacked', blog: 'x' }, {
        data: await solidPng(20, 20),
        filename: 'evil.png',
      });
      expect(patchByStranger.statusCode).toBe(403);
      expect(patchByStranger.json()).toMatchObject({ error: 'FORBIDDEN' });
      const deleteByStranger = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}`, headers: { origin: TEST_PUBLIC_URL, cookie: stranger.cookie } });
      expect(deleteByStranger.statusCode).toBe(403);

      const patchAnonymous = await send('PATCH', `/api/blogs/${blog.id}`, null, { title: 'Hacked', blog: 'x' });
      expect(patchAnonymous.statusCode).toBe(401);
      const deleteAnonymous = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}`, headers: { origin: TEST_PUBLIC_URL } });
      expect(deleteAnonymous.statusCode).toBe(401);

      const deleteCrossSite = await t.app.inject({
        method: 'DELETE',
        url: `/api/blogs/${blog.id}`,
        headers: { cookie: owner.cookie, origin: 'https://evil.example' },
      });
      expect(deleteCrossSite.statusCode).toBe(403);

      const after = await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` });
      expect(after.json()).toMatchObject({ title: 'Mine', blog: 'mine', imageUrl: blog.imageUrl });
      expect(await storedFiles()).toEqual(files);
    });

    it('validates a change like a new blog', async () => {
      const blog = await createBlog(owner);
      const response = await send('PATCH', `/api/blogs/${blog.id}`, owner, { title: '', blog: 'x' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(messages.addTitle);
    });

    it('deletes the blog for its owner with 204, then it is gone', async () => {
      const blog = await createBlog(owner);
      const response = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie } });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` })).statusCode).toBe(404);
      const again = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie } });
      expect(again.statusCode).toBe(404);
    });

    it("deleting a user's account deletes their blogs and votes (cascade)", async () => {
      const leaving = await signUpUser(t.app);
      const theirs = await createBlog(leaving, { title: 'Going away', blog: 'bye' });
      const kept = await createBlog(owner, { title: 'Staying', blog: 'hi' });
      await t.database.db.insertInto('votes').values({ blog_id: kept.id, user_id: leaving.id, direction: 'up' }).execute();
      expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${kept.id}` })).json()).toMatchObject({ upvotes: 1 });

      await t.database.db.deleteFrom('user').where('id', '=', leaving.id).execute();

      expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${theirs.id}` })).statusCode).toBe(404);
      const rows = await t.database.db.selectFrom('blogs').select('id').where('user_id', '=', leaving.id).execute();
      expect(rows).toEqual([]);
      expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${kept.id}` })).json()).toMatchObject({ upvotes: 0 });
    });
  });

  describe('images', () => {
    it('stores a good image as WebP at most 1600 px wide and serves it with immutable caching', async () => {
      const blog = await createBlog(owner, { title: 'Wide', blog: 'photo' }, {
        data: await solidPng(3000, 1000),
        filename: 'My Holiday Photo.png',
        type: 'image/png',
      });
      expect(blog.imageUrl).toMatch(new RegExp(`^/uploads/blogs/my-holiday-photo-${owner.id}-\\d{13}-[0-9a-f]{8}\\.webp$`));

      const image = await t.app.inject({ method: 'GET', url: blog.imageUrl! });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1600, 533]);
      expect(existsSync(path.join(uploadsDir, blog.imageUrl!.slice('/uploads/'.length)))).toBe(true);
    });

    it.each([
      ['a text file named .png', async () => ({ data: Buffer.from('just some text\n'), filename: 'photo.png', type: 'image/png' }), 415],
      [
        'a truncated JPEG',
        async () => {
          const jpeg = await noisyJpeg();
          return { data: jpeg.subarray(0, jpeg.length >> 1), filename: 'cut.jpg', type: 'image/jpeg' };
        },
        415,
      ],
      ['a 20000 x 20000 PNG of a few KB', async () => ({ data: pngBomb(20_000), filename: 'bomb.png', type: 'image/png' }), 413],
    ] as const)('refuses %s, leaving no blog and no file', async (_name, makeFile, status) => {
      const file = await makeFile();
      const filesBefore = await storedFiles();
      const title = `Refused upload ${status} ${file.filename}`;
      const response = await send('POST', '/api/blogs', owner, { title, blog: 'x' }, file);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toMatch(status === 415 ? /not an image/ : /at most 40 megapixels/);
      expect(await storedFiles()).toEqual(filesBefore);
      const rows = await t.database.db.selectFrom('blogs').select('id').where('title', '=', title).execute();
      expect(rows).toEqual([]);
    });

    it('refuses an oversized file with 413 naming the limit', async () => {
      const filesBefore = await storedFiles();
      const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1024, 7);
      const response = await send('POST', '/api/blogs', owner, { title: 'Too big', blog: 'x' }, { data: big, filename: 'big.jpg', type: 'image/jpeg' });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'The image is too large: at most 5 MB.' });
      expect(await storedFiles()).toEqual(filesBefore);
      expect(await t.database.db.selectFrom('blogs').select('id').where('title', '=', 'Too big').execute()).toEqual([]);
    });

    it('replacing the image removes the old file; a bad new image keeps the old one', async () => {
      const blog = await createBlog(owner, { title: 'Replace me', blog: 'x' }, { data: await solidPng(50, 50, '#ff0000'), filename: 'old.png' });
      const oldFile = path.join(uploadsDir, blog.imageUrl!.slice('/uploads/'.length));
      expect(existsSync(oldFile)).toBe(true);

      const refused = await send('PATCH', `/api/blogs/${blog.id}`, owner, { title: 'Replace me', blog: 'x' }, {
        data: Buffer.from('not an image'),
        filename: 'new.png',
      });
      expect(refused.statusCode).toBe(415);
      expect(existsSync(oldFile)).toBe(true);

      const response = await send('PATCH', `/api/blogs/${blog.id}`, owner, { title: 'Replaced', blog: 'x' }, {
        data: await solidPng(60, 40, '#00ff00'),
        filename: 'new.png',
      });
      expect(response.statusCode, response.body).toBe(200);
      const updated = response.json<Blog>();
      expect(updated.imageUrl).not.toBe(blog.imageUrl);
      expect(updated.imageUrl).toContain('/new-');
      expect(existsSync(oldFile)).toBe(false);
      const newFile = path.join(uploadsDir, updated.imageUrl!.slice('/uploads/'.length));
      expect((await sharp(newFile).metadata()).width).toBe(60);
      expect((await t.app.inject({ method: 'GET', url: blog.imageUrl! })).statusCode).toBe(404);
    });

    it('deleting the blog removes its file', async () => {
      const blog = await createBlog(owner, { title: 'Delete me', blog: 'x' }, { data: await solidPng(30, 30), filename: 'gone.png' });
      const file = path.join(uploadsDir, blog.imageUrl!.slice('/uploads/'.length));
      expect(existsSync(file)).toBe(true);
      const response = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie } });
      expect(response.statusCode).toBe(204);
      expect(existsSync(file)).toBe(false);
    });

    /** The image and its og crop at least were stored, and each stored key was deleted after its put. */
    function expectEveryPutDeletedAfterwards(recorded: Array<[string, string]>) {
      const puts = recorded.filter(([op]) => op === 'put').map(([, key]) => key);
      expect(puts.length).toBeGreaterThanOrEqual(2);
      expect(puts.some((key) => key.endsWith('-og.webp'))).toBe(true);
      for (const key of puts) {
        const putAt = recorded.findIndex(([op, k]) => op === 'put' && k === key);
        const deletedAt = recorded.findIndex(([op, k]) => op === 'delete' && k === key);
        expect(deletedAt, `${key} deleted after it was stored`).toBeGreaterThan(putAt);
      }
    }

    it('a failed insert or update leaves no new file behind (and the old image stays)', async () => {
      // A real database failure after the image is stored: a trigger refuses one title.
      await sql`
        create function blogs_test_refuse() returns trigger language plpgsql as $$
        begin
          if new.title = 'Make the write fail' then raise exception 'refused by the test trigger'; end if;
          return new;
        end;
        $$`.execute(t.database.db);
      await sql`create trigger blogs_test_refuse before insert or update on blogs for each row execute function blogs_test_refuse()`.execute(
        t.database.db,
      );
      try {
        const recorded: Array<[string, string]> = [];
        const real = createImageStorage(t.config);
        const recording: ImageStorage = {
          put: async (key, data, type) => {
            recorded.push(['put', key]);
            await real.put(key, data, type);
          },
          get: (key) => real.get(key),
          delete: async (key) => {
            recorded.push(['delete', key]);
            await real.delete(key);
          },
          list: (prefix, options) => real.list(prefix, options),
          removeListed: (key) => real.removeListed(key),
          publicUrl: (key) => real.publicUrl(key),
          publicBaseUrl: real.publicBaseUrl,
        };
        const app = await buildApp({ config: t.config, database: t.database, storage: recording, logger: false });
        try {
          const filesBefore = await storedFiles();
          const failedInsert = await send('POST', '/api/blogs', owner, { title: 'Make the write fail', blog: 'x' }, {
            data: await solidPng(20, 20),
            filename: 'orphan.png',
          }, app);
          expect(failedInsert.statusCode).toBe(500);
          expect(failedInsert.json().message).not.toContain('trigger');
          expectEveryPutDeletedAfterwards(recorded);
          expect(await storedFiles()).toEqual(filesBefore);

          const blog = await createBlog(owner, { title: 'Will not change', blog: 'x' }, { data: await solidPng(20, 20), filename: 'kept.png' });
          const filesWithBlog = await storedFiles();
          recorded.length = 0;
          const failedUpdate = await send('PATCH', `/api/blogs/${blog.id}`, owner, { title: 'Make the write fail', blog: 'x' }, {
            data: await solidPng(20, 20),
            filename: 'orphan.png',
          }, app);
          expect(failedUpdate.statusCode).toBe(500);
          expectEveryPutDeletedAfterwards(recorded);
          expect(await storedFiles()).toEqual(filesWithBlog);
          expect((await t.app.inject({ method: 'GET', url: blog.imageUrl! })).statusCode).toBe(200);
        } finally {
          await app.close();
        }
      } finally {
        await sql`drop trigger blogs_test_refuse on blogs`.execute(t.database.db);
        await sql`drop function blogs_test_refuse()`.execute(t.database.db);
      }
    });
  });
});
