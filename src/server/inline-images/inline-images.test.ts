import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import { MAX_INLINE_IMAGES } from '../../shared/constants.js';
import type { BlogPreview, InlineImageUploaded } from '../../shared/inline-image-schema.js';
import { messages } from '../../shared/messages.js';
import { allImageKeys } from '../images/stored-image.js';
import { MAX_UPLOAD_BYTES } from '../images/image-processing.js';
import { renderMarkdown } from '../markdown/render-markdown.js';
import { localUploadsDir } from '../storage/local-storage.js';
import { createImageStorage } from '../storage/storage.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { noisyJpeg, solidPng } from '../testing/image-fixtures.js';
import { postBlog } from '../testing/test-blogs.js';
import { signUpUser, type TestUser, useSignedUpUsers } from '../testing/test-users.js';
import { inlineImageKeysOf, sweepUnclaimedInlineImages } from '../core/inline-images.js';
import { createJobRunner } from '../jobs/job-runner.js';
import { registerStorageSweepJob } from '../storage-sweep/storage-sweep.job.js';
import { multipart as encodeForm, type FilePart } from '../testing/multipart.js';

const DAY_MS = 24 * 3_600_000;

/** The editor's upload: its parts are PNGs unless a test says otherwise. */
const multipart = (fields: Record<string, string>, file?: FilePart) => encodeForm(fields, file && { type: 'image/png', ...file });

describe('images inside a blog', () => {
  const t = useTestApp();
  const { owner, other } = useSignedUpUsers(t, ['owner', 'other']);
  let png: Buffer;

  beforeAll(async () => {
    png = await solidPng(640, 400);
  });

  const keyOf = (url: string) => url.replace(/^\/uploads\//, '');
  const filesExist = (url: string) => allImageKeys(keyOf(url)).filter((key) => existsSync(path.join(localUploadsDir(t.config), key)));
  const row = (url: string) => t.database.db.selectFrom('inline_images').selectAll().where('key', '=', keyOf(url)).executeTakeFirst();

  async function upload(user: TestUser | null, file = { data: png, filename: 'photo.png' }, headers: Record<string, string> = { origin: TEST_PUBLIC_URL }) {
    const body = await multipart({}, file);
    return t.app.inject({
      method: 'POST',
      url: '/api/blog-images',
      payload: body.payload,
      headers: { ...headers, ...body.headers, ...(user ? { cookie: user.cookie } : {}) },
    });
  }

  async function uploadOk(user: TestUser): Promise<InlineImageUploaded> {
    const response = await upload(user);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<InlineImageUploaded>();
  }

  async function sendBlog(method: 'POST' | 'PATCH', url: string, user: TestUser, fields: Record<string, string>) {
    const body = await multipart(fields);
    return t.app.inject({ method, url, payload: body.payload, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie, ...body.headers } });
  }

  async function editBlog(user: TestUser, id: string, blog: string): Promise<Blog> {
    const response = await sendBlog('PATCH', `/api/blogs/${id}`, user, { title: 'Edited', blog });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Blog>();
  }

  describe('uploading', () => {
    it('stores the image through the Post Image pipeline and answers its URL and size', async () => {
      const uploaded = await uploadOk(owner);
      expect(uploaded).toEqual({ url: expect.stringMatching(/^\/uploads\/blogs\/photo-[^/]+\.webp$/), width: 640, height: 400 });
      // The image, its 480 px copy and its Open Graph crop (640 px has no 960 px copy).
      expect(filesExist(uploaded.url)).toHaveLength(3);
      expect(await row(uploaded.url)).toMatchObject({ user_id: owner.id, blog_id: null, width: 640, height: 400 });
      const served = await t.app.inject({ method: 'GET', url: uploaded.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toContain('image/webp');
    });

    it('refuses anonymous and cross-site uploads', async () => {
      expect((await upload(null)).statusCode).toBe(401);
      expect((await upload(owner, undefined, { origin: 'https://evil.example' })).statusCode).toBe(403);
    });

    it('refuses a file that is not an image (415), one over the size cap (413) and a form without the image (400)', async () => {
      const text = await upload(owner, { data: Buffer.from('just some text'), filename: 'notes.png' });
      expect(text.statusCode).toBe(415);
      expect(text.json()).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE' });
      const big = await upload(owner, { data: Buffer.concat([await noisyJpeg(), Buffer.alloc(MAX_UPLOAD_BYTES)]), filename: 'big.jpg' });
      expect(big.statusCode).toBe(413);
      expect(big.json()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('at most 5 MB') });
      const body = await multipart({ title: 'no file' });
      const empty = await t.app.inject({
        method: 'POST',
        url: '/api/blog-images',
        payload: body.payload,
        headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie, ...body.headers },
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('"image"') });
    });
  });

  describe('in a saved blog', () => {
    it('shows an uploaded image on the page with its size, an external one as a link, and the blog holds the upload', async () => {
      const uploaded = await uploadOk(owner);
      const blog = await postBlog(t.app, owner, { title: 'Pictures', blog: `![a cat](${uploaded.url})\n\n![pixel](https://tracker.example/p.gif)` });
      expect(blog.html).toContain(`<img src="${uploaded.url}" alt="a cat" width="640" height="400" loading="lazy" />`);
      expect(blog.html).not.toContain('<img src="https://tracker.example');
      expect(blog.html).toContain('<a href="https://tracker.example/p.gif" rel="nofollow ugc noopener">pixel</a>');
      expect(await row(uploaded.url)).toMatchObject({ blog_id: blog.id });
      const page = await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` });
      expect(page.json<Blog>().html).toBe(blog.html);
    });

    it(`refuses a blog showing more than ${MAX_INLINE_IMAGES} of the site's images with a 400, on create and on edit`, async () => {
      const images = (count: number) => Array.from({ length: count }, (_, i) => `![${i}](/uploads/blogs/picture-${i}.webp)`).join('\n');
      const tooMany = await sendBlog('POST', '/api/blogs', owner, { title: 'Gallery', blog: images(MAX_INLINE_IMAGES + 1) });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toEqual({ error: 'TOO_MANY_IMAGES', message: messages.tooManyInlineImages });
      // The same image twice counts once; exactly the maximum is fine.
      const blog = await postBlog(t.app, owner, { title: 'Gallery', blog: `${images(MAX_INLINE_IMAGES)}\n![again](/uploads/blogs/picture-0.webp)` });
      const edit = await sendBlog('PATCH', `/api/blogs/${blog.id}`, owner, { title: 'Gallery', blog: images(MAX_INLINE_IMAGES + 1) });
      expect(edit.statusCode).toBe(400);
      expect(edit.json()).toMatchObject({ error: 'TOO_MANY_IMAGES' });
    });

    it('hands an image taken out of the text on edit back to the grace period, then the sweep removes it', async () => {
      const [kept, dropped] = [await uploadOk(owner), await uploadOk(owner)];
      const blog = await postBlog(t.app, owner, { title: 'Two', blog: `![kept](${kept.url}) ![dropped](${dropped.url})` });
      expect(await row(dropped.url)).toMatchObject({ blog_id: blog.id });
      const edited = await editBlog(owner, blog.id, `Only ![kept](${kept.url}) now`);
      expect(edited.html).toContain(kept.url);
      // An autosave taken while the image's Markdown was cut must not lose it: pasted back, it is the blog's again.
      expect(await row(dropped.url)).toMatchObject({ blog_id: null });
      expect(filesExist(dropped.url)).toHaveLength(3);
      await editBlog(owner, blog.id, `![dropped](${dropped.url}) back, ![kept](${kept.url})`);
      expect(await row(dropped.url)).toMatchObject({ blog_id: blog.id });

      await editBlog(owner, blog.id, `Only ![kept](${kept.url}) again`);
      await t.database.db.updateTable('inline_images').set({ created_at: new Date(Date.now() - 2 * DAY_MS) }).where('key', '=', keyOf(dropped.url)).execute();
      await sweepUnclaimedInlineImages({ db: t.database.db, storage: createImageStorage(t.config), log: t.app.log }, { graceMs: DAY_MS });
      expect(filesExist(dropped.url)).toEqual([]);
      expect(await row(dropped.url)).toBeUndefined();
      expect(filesExist(kept.url)).toHaveLength(3);
      expect(await row(kept.url)).toMatchObject({ blog_id: blog.id });
    });

    it("removes a blog's images with the blog", async () => {
      const uploaded = await uploadOk(owner);
      const blog = await postBlog(t.app, owner, { title: 'Short-lived', blog: `![x](${uploaded.url})` });
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie } });
      expect(deleted.statusCode).toBe(204);
      expect(filesExist(uploaded.url)).toEqual([]);
      expect(await row(uploaded.url)).toBeUndefined();
    });

    it("removes a deleted account's images, used in a blog or not yet", async () => {
      const leaving = await signUpUser(t.app);
      const [used, unused] = [await uploadOk(leaving), await uploadOk(leaving)];
      await postBlog(t.app, leaving, { title: 'Bye', blog: `![x](${used.url})` });
      const response = await t.app.inject({
        method: 'DELETE',
        url: '/api/account',
        headers: { origin: TEST_PUBLIC_URL, cookie: leaving.cookie },
        payload: { password: leaving.password },
      });
      expect(response.statusCode, response.body).toBe(204);
      expect(filesExist(used.url)).toEqual([]);
      expect(filesExist(unused.url)).toEqual([]);
      expect(await row(used.url)).toBeUndefined();
      expect(await row(unused.url)).toBeUndefined();
    });

    it("cannot take another user's image: it may be shown, but it stays its owner's and outlives the borrowing blog", async () => {
      const [theirsLoose, theirsInBlog] = [await uploadOk(other), await uploadOk(other)];
      const theirBlog = await postBlog(t.app, other, { title: 'Mine', blog: `![x](${theirsInBlog.url})` });
      const borrowing = await postBlog(t.app, owner, { title: 'Borrowed', blog: `![a](${theirsLoose.url}) ![b](${theirsInBlog.url})` });
      expect(borrowing.html).toContain(`src="${theirsLoose.url}"`);
      expect(await row(theirsLoose.url)).toMatchObject({ user_id: other.id, blog_id: null });
      expect(await row(theirsInBlog.url)).toMatchObject({ user_id: other.id, blog_id: theirBlog.id });
      // Taking them out of the borrowing blog, or deleting it, removes nothing of theirs.
      await editBlog(owner, borrowing.id, 'No pictures');
      await t.app.inject({ method: 'DELETE', url: `/api/blogs/${borrowing.id}`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie } });
      expect(filesExist(theirsLoose.url)).toHaveLength(3);
      expect(filesExist(theirsInBlog.url)).toHaveLength(3);
      expect(await row(theirsInBlog.url)).toMatchObject({ blog_id: theirBlog.id });
      // Their own blog can still take their loose upload.
      await editBlog(other, theirBlog.id, `![x](${theirsInBlog.url}) ![y](${theirsLoose.url})`);
      expect(await row(theirsLoose.url)).toMatchObject({ blog_id: theirBlog.id });
    });
  });

  describe('the sweep of unused uploads', () => {
    it('removes uploads no blog took within the grace period, and nothing else; a second run finds nothing', async () => {
      const [stale, fresh, used] = [await uploadOk(owner), await uploadOk(owner), await uploadOk(owner)];
      await postBlog(t.app, owner, { title: 'Keeps one', blog: `![x](${used.url})` });
      const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
      await t.database.db.updateTable('inline_images').set({ created_at: twoDaysAgo }).where('key', 'in', [keyOf(stale.url), keyOf(used.url)]).execute();
      const deps = { db: t.database.db, storage: createImageStorage(t.config), log: t.app.log };
      // Batches of one: the sweep goes on past a full batch.
      const removed = await sweepUnclaimedInlineImages(deps, { graceMs: DAY_MS, batchSize: 1 });
      expect(removed).toBeGreaterThanOrEqual(1);
      expect(filesExist(stale.url)).toEqual([]);
      expect(await row(stale.url)).toBeUndefined();
      expect(filesExist(fresh.url)).toHaveLength(3);
      expect(filesExist(used.url)).toHaveLength(3);
      expect(await sweepUnclaimedInlineImages(deps, { graceMs: DAY_MS })).toBe(0);
    });

    it('runs at start as part of the one storage sweep (as the server starts it) and stops after the batch in hand', async () => {
      const stale = await uploadOk(owner);
      await t.database.db.updateTable('inline_images').set({ created_at: new Date(Date.now() - 2 * DAY_MS) }).where('key', '=', keyOf(stale.url)).execute();
      const jobs = createJobRunner({ database: t.database, log: t.app.log });
      registerStorageSweepJob(jobs, { db: t.database.db, storage: createImageStorage(t.config) }, { graceMs: 3_600_000, inlineGraceMs: DAY_MS, intervalMs: 60_000 });
      await jobs.start();
      await vi.waitFor(() => expect(jobs.stats()[0]!.runs).toBe(1));
      await jobs.stop();
      expect(await row(stale.url)).toBeUndefined();
      expect(filesExist(stale.url)).toEqual([]);
    });
  });

  describe('the preview', () => {
    it('answers exactly the HTML the saved blog gets', async () => {
      const uploaded = await uploadOk(owner);
      const source = `# Heading\n\n**bold** and <script>alert(1)</script>\n\n![cat](${uploaded.url}) ![ext](https://x.example/a.png)\n\n\`\`\`js\nconst a = 1;\n\`\`\``;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/blogs/preview',
        headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie },
        payload: { blog: source },
      });
      expect(response.statusCode, response.body).toBe(200);
      const preview = response.json<BlogPreview>();
      const blog = await postBlog(t.app, owner, { title: 'Previewed', blog: source });
      expect(preview.html).toBe(blog.html);
      expect(preview.html).toContain('<h2>Heading</h2>');
      expect(preview.html).not.toContain('<script');
      expect(preview.readingMinutes).toBe(blog.readingMinutes);
    });

    it('refuses anonymous, cross-site and too-long requests', async () => {
      const ask = (headers: Record<string, string>, blog = 'x') =>
        t.app.inject({ method: 'POST', url: '/api/blogs/preview', headers, payload: { blog } });
      expect((await ask({ origin: TEST_PUBLIC_URL })).statusCode).toBe(401);
      expect((await ask({ origin: 'https://evil.example', cookie: owner.cookie })).statusCode).toBe(403);
      const long = await ask({ origin: TEST_PUBLIC_URL, cookie: owner.cookie }, 'a'.repeat(20_001));
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ message: expect.stringContaining('too long') });
    });
  });

  describe('removing the cover image', () => {
    it('takes the image off the blog and deletes its files; only the owner may', async () => {
      const blog = await postBlog(t.app, owner, { title: 'Covered', blog: 'Text' }, png);
      const coverUrl = blog.imageUrl!;
      expect(filesExist(coverUrl).length).toBeGreaterThan(0);
      const remove = (user: TestUser | null, origin = TEST_PUBLIC_URL) =>
        t.app.inject({ method: 'DELETE', url: `/api/blogs/${blog.id}/image`, headers: { origin, ...(user ? { cookie: user.cookie } : {}) } });
      expect((await remove(null)).statusCode).toBe(401);
      expect((await remove(other)).statusCode).toBe(403);
      expect((await remove(owner, 'https://evil.example')).statusCode).toBe(403);
      expect(filesExist(coverUrl).length).toBeGreaterThan(0);
      const response = await remove(owner);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<Blog>()).toMatchObject({ id: blog.id, imageUrl: null, image: null, blog: 'Text' });
      expect(filesExist(coverUrl)).toEqual([]);
      // Again: nothing left to remove, the blog as it is.
      expect((await remove(owner)).statusCode).toBe(200);
    });
  });
});

describe('the upload rate limit', () => {
  it('stops a user after the limit (429), before any upload is read', async () => {
    // 60 in ten minutes at scale 1; at 0.05, 3.
    const t = await createTestApp({ RATE_LIMIT_SCALE: '0.05' });
    try {
      const user = await signUpUser(t.app);
      const body = await multipart({}, { data: Buffer.from('not an image'), filename: 'x.png' });
      const send = () =>
        t.app.inject({ method: 'POST', url: '/api/blog-images', payload: body.payload, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie, ...body.headers } });
      for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(415);
      const refused = await send();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', message: expect.stringContaining('uploaded many images') });
    } finally {
      await t.close();
    }
  });
});

describe('inline images with S3 storage', () => {
  it("counts the S3 public URL's images as the site's own, and no other host's", () => {
    const storage = { publicBaseUrl: 'https://cdn.example/bucket/' };
    const rendered = renderMarkdown('![a](https://cdn.example/bucket/blogs/a-1.webp) ![b](https://cdn.example.evil/bucket/blogs/b.webp)', {
      imagePrefixes: [storage.publicBaseUrl],
    });
    expect(rendered.html).toContain('<img src="https://cdn.example/bucket/blogs/a-1.webp"');
    expect(rendered.html).toContain('<a href="https://cdn.example.evil/bucket/blogs/b.webp"');
    expect(inlineImageKeysOf(rendered, storage)).toEqual(['blogs/a-1.webp']);
  });
});
