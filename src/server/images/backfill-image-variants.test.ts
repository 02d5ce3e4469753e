import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import { createImageStorage, newImageKey, type ImageStorage } from '../storage/storage.js';
import { useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers } from '../testing/test-users.js';
import { solidPng } from '../testing/image-fixtures.js';
import { backfillImageVariants, type BackfillLog } from './backfill-image-variants.js';
import { processUploadedImage } from './image-processing.js';
import { allImageKeys } from './stored-image.js';

describe('backfillImageVariants', () => {
  const t = useTestApp();
  const { owner } = useSignedUpUsers(t, ['owner']);
  let storage: ImageStorage;

  beforeAll(async () => {
    storage = createImageStorage(t.config);
  });

  /** A blog as it was stored before variants existed: the one WebP and only `image_key`. */
  async function oldStyleBlog(title: string, width: number, height: number, options: { withFile?: boolean; id?: string } = {}) {
    const key = newImageKey(`${title}.png`, owner.id);
    if (options.withFile !== false) {
      const image = await processUploadedImage(await solidPng(width, height));
      await storage.put(key, image.data, image.contentType);
    }
    const row = await t.database.db
      .insertInto('blogs')
      .values({ ...(options.id ? { id: options.id } : {}), user_id: owner.id, title, body: 'old', image_key: key })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, key };
  }

  /** Storage that counts writes, to see what a run did. */
  function countingStorage() {
    const puts: string[] = [];
    const counting: ImageStorage = { ...storage, put: async (key, data, type) => {
      puts.push(key);
      await storage.put(key, data, type);
    } };
    return { storage: counting, puts };
  }

  function recordingLog() {
    const lines: Array<{ level: string; message: string; details: object }> = [];
    const record = (level: string) => (details: object, message: string) => void lines.push({ level, message, details });
    const log: BackfillLog = { info: record('info'), warn: record('warn'), error: record('error') };
    return { log, lines };
  }

  const imageColumns = (id: string) =>
    t.database.db
      .selectFrom('blogs')
      .select(['image_width', 'image_height', 'image_variant_widths'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  const existing = async (key: string) => (await Promise.all(allImageKeys(key).map((each) => storage.get(each)))).map(Boolean);

  async function apiImage(id: string) {
    return (await t.app.inject({ method: 'GET', url: `/api/blogs/${id}` })).json<Blog>();
  }

  it('gives old images their variants and sizes, in committed steps, and does nothing the second time', async () => {
    // Ids chosen so that the run's order (by id) is wide, medium, small.
    const wide = await oldStyleBlog('Old wide', 3000, 1500, { id: '00000000-0000-4000-8000-000000000001' });
    const medium = await oldStyleBlog('Old medium', 700, 700, { id: '00000000-0000-4000-8000-000000000002' });
    const small = await oldStyleBlog('Old small', 200, 100, { id: '00000000-0000-4000-8000-000000000003' });
    const before = await apiImage(wide.id);
    expect(before.imageUrl).toBeTruthy();
    expect(before.image).toBeNull();
    expect(await existing(wide.key)).toEqual([true, false, false, false]);

    // Stop after the first image: the run ends there, and that image's work is kept.
    const stop = new AbortController();
    const first = countingStorage();
    first.storage.put = async (key, data, type) => {
      await storage.put(key, data, type);
      if (key.endsWith('-og.webp')) stop.abort();
    };
    const partial = await backfillImageVariants({ db: t.database.db, storage: first.storage, log: recordingLog().log }, {
      batchSize: 2,
      signal: stop.signal,
    });
    expect(partial).toEqual({ done: 1, missing: 0, failed: 0 });
    expect(await imageColumns(wide.id)).toEqual({ image_width: 1600, image_height: 800, image_variant_widths: [480, 960] });
    expect(await imageColumns(medium.id)).toEqual({ image_width: null, image_height: null, image_variant_widths: null });

    // A new run resumes with the rest, across batches of two.
    const resumed = countingStorage();
    const { log, lines } = recordingLog();
    const rest = await backfillImageVariants({ db: t.database.db, storage: resumed.storage, log }, { batchSize: 2 });
    expect(rest).toEqual({ done: 2, missing: 0, failed: 0 });
    expect(resumed.puts.some((key) => key.startsWith(wide.key.slice(0, -5)))).toBe(false);
    expect(await imageColumns(medium.id)).toEqual({ image_width: 700, image_height: 700, image_variant_widths: [480] });
    expect(await imageColumns(small.id)).toEqual({ image_width: 200, image_height: 100, image_variant_widths: [] });
    expect(lines.at(-1)).toEqual({
      level: 'info',
      message: 'image variants: backfill finished',
      details: { done: 2, missing: 0, failed: 0, stopped: false },
    });

    expect(await existing(wide.key)).toEqual([true, true, true, true]);
    expect(await existing(medium.key)).toEqual([true, true, false, true]);
    expect(await existing(small.key)).toEqual([true, false, false, true]);
    const og = await sharp((await storage.get(allImageKeys(small.key).at(-1)!))!).metadata();
    expect([og.width, og.height]).toEqual([1200, 630]);
    const after = await apiImage(wide.id);
    expect(after.image).toMatchObject({ url: before.imageUrl, width: 1600, height: 800 });
    expect(after.image!.srcset).toMatch(/-w480\.webp 480w, .*-w960\.webp 960w, .* 1600w$/);

    // Idempotent: nothing left, nothing written, nothing logged but silence.
    const again = countingStorage();
    const quiet = recordingLog();
    expect(await backfillImageVariants({ db: t.database.db, storage: again.storage, log: quiet.log })).toEqual({
      done: 0,
      missing: 0,
      failed: 0,
    });
    expect(again.puts).toEqual([]);
    expect(quiet.lines).toEqual([]);
  });

  it('logs and skips an image whose file is missing or unreadable, and finishes the others', async () => {
    const missing = await oldStyleBlog('Missing file', 100, 100, { withFile: false });
    const broken = await oldStyleBlog('Broken file', 100, 100, { withFile: false });
    await storage.put(broken.key, Buffer.from('not a picture'), 'image/webp');
    const fine = await oldStyleBlog('Fine file', 600, 400);

    const { log, lines } = recordingLog();
    const counts = await backfillImageVariants({ db: t.database.db, storage, log });

    expect(counts).toEqual({ done: 1, missing: 1, failed: 1 });
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.details)).toEqual([{ blogId: missing.id, key: missing.key }]);
    expect(lines.filter((line) => line.level === 'error').map((line) => line.details)).toEqual([
      expect.objectContaining({ blogId: broken.id, key: broken.key }),
    ]);
    expect(await imageColumns(fine.id)).toEqual({ image_width: 600, image_height: 400, image_variant_widths: [480] });
    expect((await imageColumns(missing.id)).image_variant_widths).toBeNull();
    expect((await imageColumns(broken.id)).image_variant_widths).toBeNull();
    await t.database.db.deleteFrom('blogs').where('id', 'in', [missing.id, broken.id]).execute();
  });

  it('removes the variants it made when the blog got another image meanwhile', async () => {
    const blog = await oldStyleBlog('Replaced meanwhile', 1000, 500);
    const racing: ImageStorage = {
      ...storage,
      put: async (key, data, type) => {
        await storage.put(key, data, type);
        // The owner replaces the image while the backfill works on the old one.
        if (key.endsWith('-og.webp')) {
          await t.database.db.updateTable('blogs').set({ image_key: null }).where('id', '=', blog.id).execute();
        }
      },
    };
    const counts = await backfillImageVariants({ db: t.database.db, storage: racing, log: recordingLog().log });
    expect(counts.done).toBe(1);
    expect(await existing(blog.key)).toEqual([false, false, false, false]);
  });
});
