import { existsSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { solidPng } from '../testing/image-fixtures.js';
import { signUpUser } from '../testing/test-users.js';

/**
 * The disk fills up while an image is written: the first half of the file lands, then the
 * write fails with ENOSPC, exactly as a full file system answers.
 */
const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const writeFile: typeof fs.writeFile = async (file, data, options) => {
    if (!disk.full || !String(file).includes(`${path.sep}uploads${path.sep}`) || !(data instanceof Uint8Array)) return fs.writeFile(file, data, options);
    await fs.writeFile(file, data.subarray(0, Math.floor(data.length / 2)), options);
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  return { ...fs, writeFile, default: { ...fs, writeFile } };
});

describe('a full disk on upload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const files = async () => {
    const folder = path.join(t.dataDir, 'uploads');
    return existsSync(folder) ? (await readdir(folder, { recursive: true })).sort() : [];
  };

  async function send(method: 'POST' | 'PATCH', url: string, cookie: string, title: string) {
    const form = new FormData();
    form.append('title', title);
    form.append('blog', 'text');
    form.append('image', new Blob([new Uint8Array(await solidPng(40, 30))], { type: 'image/png' }), 'a.png');
    const encoded = new Response(form);
    return t.app.inject({
      method,
      url,
      headers: { origin: TEST_PUBLIC_URL, cookie, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
  }

  it('answers 507 with a clear message and leaves no blog, no changed blog and no file behind', async () => {
    const user = await signUpUser(t.app);
    const kept = await send('POST', '/api/blogs', user.cookie, 'Before the disk filled');
    expect(kept.statusCode).toBe(201);
    const filesBefore = await files();
    const blogsBefore = await t.database.db.selectFrom('blogs').select(['id', 'title', 'image_key']).orderBy('id').execute();

    disk.full = true;
    try {
      const created = await send('POST', '/api/blogs', user.cookie, 'Written on a full disk');
      expect(created.statusCode).toBe(507);
      expect(created.json()).toEqual({
        error: 'INSUFFICIENT_STORAGE',
        message: 'The server has no room to store this image right now. Please try again later, or send the blog without an image.',
      });
      const edited = await send('PATCH', `/api/blogs/${(kept.json() as { id: string }).id}`, user.cookie, 'Edited on a full disk');
      expect(edited.statusCode).toBe(507);
    } finally {
      disk.full = false;
    }
    expect(await files()).toEqual(filesBefore);
    expect(await t.database.db.selectFrom('blogs').select(['id', 'title', 'image_key']).orderBy('id').execute()).toEqual(blogsBefore);
  });
});
