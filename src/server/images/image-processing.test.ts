import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { MAX_INPUT_PIXELS, MAX_UPLOAD_BYTES, processUploadedImage } from './image-processing.js';
import { noisyJpeg, pngBomb } from '../testing/image-fixtures.js';

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

async function statusOf(promise: Promise<unknown>): Promise<number> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).statusCode;
}

describe('processUploadedImage', () => {
  it('re-encodes a JPEG as WebP without its EXIF data, upright', async () => {
    const input = await solid(40, 20, '#3366cc')
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Artist: 'Jane Photographer', Copyright: 'secret location notes' } })
      .toBuffer();
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.exif?.toString('latin1')).toContain('Jane Photographer');
    expect(inputMeta.orientation).toBe(6);

    const result = await processUploadedImage(input);

    expect(result.contentType).toBe('image/webp');
    const meta = await sharp(result.data).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(result.data.includes('Jane Photographer')).toBe(false);
    // Orientation 6 means the stored 40x20 pixels are shown rotated a quarter turn.
    expect([result.width, result.height]).toEqual([20, 40]);
    expect([meta.width, meta.height]).toEqual([20, 40]);
  });

  it('shrinks a 4000 px wide image to 1600 px, keeping the aspect ratio', async () => {
    const input = await solid(4000, 1000, '#ff8800').png().toBuffer();
    const result = await processUploadedImage(input);
    expect([result.width, result.height]).toEqual([1600, 400]);
    const meta = await sharp(result.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1600, 400]);
  });

  it('does not enlarge a small image', async () => {
    const result = await processUploadedImage(await solid(300, 200, '#00aa00').webp().toBuffer());
    expect([result.width, result.height]).toEqual([300, 200]);
  });

  it('accepts GIF (first frame of an animation) and AVIF', async () => {
    const red = await solid(20, 10, '#ff0000').png().toBuffer();
    const blue = await solid(20, 10, '#0000ff').png().toBuffer();
    const animated = await sharp([red, blue], { join: { animated: true } }).gif().toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);

    const fromGif = await processUploadedImage(animated);
    expect([fromGif.width, fromGif.height]).toEqual([20, 10]);
    const { data } = await sharp(fromGif.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200); // red, the first frame
    expect(data[2]).toBeLessThan(50);

    const fromAvif = await processUploadedImage(await solid(30, 30, '#123456').avif().toBuffer());
    expect(fromAvif.width).toBe(30);
  });

  it('refuses a text file with 415', async () => {
    expect(await statusOf(processUploadedImage(Buffer.from('just some text, named photo.png\n')))).toBe(415);
  });

  it('refuses an empty upload with 415', async () => {
    expect(await statusOf(processUploadedImage(Buffer.alloc(0)))).toBe(415);
  });

  it('refuses a truncated JPEG with 415', async () => {
    const jpeg = await noisyJpeg();
    await expect(processUploadedImage(jpeg)).resolves.toMatchObject({ width: 800 });
    expect(await statusOf(processUploadedImage(jpeg.subarray(0, jpeg.length >> 1)))).toBe(415);
  });

  it('refuses an SVG with 415, even though it is a well-formed image', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
    );
    expect((await sharp(svg).metadata()).format).toBe('svg');
    expect(await statusOf(processUploadedImage(svg))).toBe(415);
  });

  it('refuses a decompression bomb with 413 without decoding it', async () => {
    const bomb = pngBomb(20_000);
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 20_000, 20_000]);
    expect(meta.width * meta.height).toBeGreaterThan(MAX_INPUT_PIXELS);

    const started = performance.now();
    const error = await processUploadedImage(bomb).catch((e: unknown) => e);
    const elapsed = performance.now() - started;

    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(413);
    expect((error as AppError).message).toBe('The image is too large: at most 40 megapixels.');
    // Decoding these 400 megapixels takes seconds; reading the header takes a millisecond.
    expect(elapsed).toBeLessThan(500);
  });
});
