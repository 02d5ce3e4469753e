import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import { createImageStorage } from '../storage/storage.js';
import { startS3TestServer, type S3TestServer } from '../testing/s3-test-server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signUpUser, type TestUser } from '../testing/test-users.js';
import { solidPng } from '../testing/image-fixtures.js';
import { allImageKeys } from './stored-image.js';
import { multipart as encodeForm } from '../testing/multipart.js';

/**
 * The API's image metadata, and every file of an image removed with it, on both storages:
 * local (files under DATA_DIR/uploads, served by the app) and S3 (objects in s3rver).
 */
/** The blog form with an optional PNG cover. */
const multipart = (fields: Record<string, string>, image?: Buffer) =>
  encodeForm(fields, image && { data: image, filename: 'photo.png', type: 'image/png' });

describe.each(['local', 's3'] as const)('blog image variants with %s storage', (kind) => {
  let s3: S3TestServer | undefined;
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    s3 = kind === 's3' ? await startS3TestServer() : undefined;
    t = await createTestApp(s3?.env ?? {});
    owner = await signUpUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** Loads a URL the API gave out: through the app when site-relative, else from S3. */
  async function load(url: string): Promise<{ status: number; body: Buffer }> {
    if (url.startsWith('/')) {
      const response = await t.app.inject({ method: 'GET', url });
      return { status: response.statusCode, body: response.rawPayload };
    }
    const response = await fetch(url);
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  }

  async function send(method: 'POST' | 'PATCH', url: string, fields: Record<string, string>, image?: Buffer) {
    const body = await multipart(fields, image);
    return t.app.inject({ method, url, payload: body.payload, headers: { ...body.headers, cookie: owner.cookie, origin: t.config.publicUrl } });
  }

  async function createBlog(title: string, image?: Buffer): Promise<Blog> {
    const response = await send('POST', '/api/blogs', { title, blog: 'x' }, image);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Blog>();
  }

  const imageKeyOf = async (blogId: string) =>
    (await t.database.db.selectFrom('blogs').select('image_key').where('id', '=', blogId).executeTakeFirstOrThrow()).image_key!;

  /** The status of every file the image at `key` may have: main, each variant width, og crop. */
  async function statusesOf(key: string): Promise<number[]> {
    const storage = createImageStorage(t.config);
    return Promise.all(allImageKeys(key).map(async (each) => (await load(storage.publicUrl(each))).status));
  }

  it('returns the size, a srcset of every stored width and the og crop, all loadable', async () => {
    const blog = await createBlog('Wide photo', await solidPng(3000, 2000));
    const image = blog.image!;
    expect(image).toMatchObject({ url: blog.imageUrl, width: 1600, height: 1067 });
    const candidates = image.srcset.split(', ').map((candidate) => candidate.split(' '));
    expect(candidates.map(([, descriptor]) => descriptor)).toEqual(['480w', '960w', '1600w']);
    expect(candidates[2]![0]).toBe(blog.imageUrl);
    if (kind === 's3') expect(image.ogUrl).toMatch(new RegExp(`^${s3!.env.S3_ENDPOINT}/`));
    else expect(image.ogUrl).toMatch(/^\/uploads\/blogs\/photo-.*-og\.webp$/);

    for (const [url, descriptor] of candidates) {
      const loaded = await load(url!);
      expect(loaded.status).toBe(200);
      expect((await sharp(loaded.body).metadata()).width).toBe(Number.parseInt(descriptor!, 10));
    }
    const og = await sharp((await load(image.ogUrl)).body).metadata();
    expect([og.format, og.width, og.height]).toEqual(['webp', 1200, 630]);

    const read = await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` });
    expect(read.json<Blog>().image).toEqual(image);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/blogs' })).json<{ items: Blog[] }>().items;
    expect(listed.find((item) => item.id === blog.id)?.image).toEqual(image);
  });

  it('lists only real widths for a small image, and has no image object without an image', async () => {
    const small = await createBlog('Small photo', await solidPng(300, 200));
    expect(small.image).toMatchObject({ width: 300, height: 200, srcset: `${small.imageUrl} 300w` });
    expect((await sharp((await load(small.image!.ogUrl)).body).metadata()).width).toBe(1200);

    const none = await createBlog('No photo');
    expect(none).toMatchObject({ imageUrl: null, image: null });
  });

  it('replacing the image removes the old image and every one of its variants', async () => {
    const blog = await createBlog('Replace me', await solidPng(2000, 1000));
    const oldKey = await imageKeyOf(blog.id);
    expect(await statusesOf(oldKey)).toEqual([200, 200, 200, 200]);

    const response = await send('PATCH', `/api/blogs/${blog.id}`, { title: 'Replaced', blog: 'x' }, await solidPng(1000, 500));
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json<Blog>();
    expect(updated.image).toMatchObject({ width: 1000, height: 500 });
    expect(updated.image!.srcset.split(', ').map((candidate) => candidate.split(' ')[1])).toEqual(['480w', '960w', '1000w']);

    expect(await statusesOf(oldKey)).toEqual([404, 404, 404, 404]);
    expect(await statusesOf(await imageKeyOf(blog.id))).toEqual([200, 200, 200, 200]);
  });

  it('deleting the blog removes the image and every one of its variants', async () => {
    const blog = await createBlog('Delete me', await solidPng(2000, 1000));
    const key = await imageKeyOf(blog.id);
    expect(await statusesOf(key)).toEqual([200, 200, 200, 200]);

    const response = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}`, headers: { cookie: owner.cookie, origin: t.config.publicUrl } });
    expect(response.statusCode).toBe(204);
    expect(await statusesOf(key)).toEqual([404, 404, 404, 404]);
  });

  it('deleting the account removes the image and every one of its variants', async () => {
    const leaving = await signUpUser(t.app);
    const body = await multipart({ title: 'Mine', blog: 'x' }, await solidPng(1200, 800));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/blogs',
      payload: body.payload,
      headers: { ...body.headers, cookie: leaving.cookie, origin: t.config.publicUrl },
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = await imageKeyOf(created.json<Blog>().id);
    expect(await statusesOf(key)).toEqual([200, 200, 200, 200]);

    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      payload: { password: leaving.password },
      headers: { cookie: leaving.cookie, origin: t.config.publicUrl },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await statusesOf(key)).toEqual([404, 404, 404, 404]);
  });
});
