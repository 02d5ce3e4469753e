import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { solidPng } from '../testing/image-fixtures.js';
import { MAX_WIDTH } from './image-processing.js';
import { ImageWorker } from './image-worker-client.js';

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('images made in a child process', () => {
  let worker: ImageWorker | undefined;
  afterEach(() => worker?.stop());

  it('re-encodes an upload and renders its variants in another process, which exits once idle', async () => {
    worker = new ImageWorker({ cacheBytes: 0, concurrency: 1 }, 300);
    const image = await worker.processUploadedImage(await solidPng(2000, 1000));
    const pid = worker.pid!;
    expect(pid).not.toBe(process.pid);
    expect(image).toMatchObject({ width: MAX_WIDTH, height: 800, contentType: 'image/webp' });
    expect(Buffer.isBuffer(image.data)).toBe(true);
    expect(image.data.subarray(8, 12).toString()).toBe('WEBP');

    const variants = await worker.renderImageVariants(image.data);
    expect(variants.widths.map((variant) => variant.width)).toEqual([480, 960]);
    expect(variants.og.subarray(8, 12).toString()).toBe('WEBP');
    // The same child served both; then, with nothing to do, it exits.
    expect(worker.pid).toBe(pid);
    await expect.poll(() => running(pid), { timeout: 10_000, interval: 50 }).toBe(false);
    expect(worker.pid).toBeUndefined();

    // The next image starts another.
    await expect(worker.processUploadedImage(await solidPng(30, 20))).resolves.toMatchObject({ width: 30, height: 20 });
    expect(worker.pid).not.toBe(pid);
  }, 60_000);

  it('answers a file that is not an image with the same 415 as in process, and a failed render as an error', async () => {
    worker = new ImageWorker({ cacheBytes: 0, concurrency: 1 });
    const refused = await worker.processUploadedImage(Buffer.from('just some text, named photo.png\n')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('Upload a JPEG, PNG, WebP, GIF or AVIF image.') });
    await expect(worker.renderImageVariants(Buffer.from('not an image'))).rejects.toThrow();
  }, 60_000);

  it('fails the image in hand when the child dies, and starts a new one for the next', async () => {
    worker = new ImageWorker({ cacheBytes: 0, concurrency: 1 });
    await worker.processUploadedImage(await solidPng(40, 40));
    const pid = worker.pid!;
    const inHand = worker.renderImageVariants((await worker.processUploadedImage(await solidPng(1600, 1000))).data);
    process.kill(pid, 'SIGKILL');
    await expect(inHand).rejects.toThrow(/The image worker stopped \(SIGKILL\)/);
    await expect(worker.processUploadedImage(await solidPng(50, 40))).resolves.toMatchObject({ width: 50, height: 40 });
    expect(worker.pid).not.toBe(pid);
  }, 60_000);
});
