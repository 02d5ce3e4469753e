import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { solidPng } from '../testing/image-fixtures.js';
import { MAX_WIDTH, processUploadedImage } from './image-processing.js';
import { OG_HEIGHT, OG_WIDTH, renderImageVariants, VARIANT_WIDTHS, variantWidthsFor } from './image-variants.js';

const sizeOf = async (data: Buffer) => {
  const meta = await sharp(data).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
};

/** What an upload of width x height is stored as, then its variants. */
async function variantsOfUpload(width: number, height: number) {
  const stored = await processUploadedImage(await solidPng(width, height));
  return renderImageVariants(stored.data);
}

describe('renderImageVariants', () => {
  it('makes every variant width below the stored 1600 px, keeping the aspect ratio, as WebP', async () => {
    const variants = await variantsOfUpload(3000, 2000);

    expect([variants.width, variants.height]).toEqual([MAX_WIDTH, 1067]);
    expect(variants.widths.map((variant) => variant.width)).toEqual([480, 960]);
    expect(await Promise.all(variants.widths.map((variant) => sizeOf(variant.data)))).toEqual([
      { format: 'webp', width: 480, height: 320 },
      { format: 'webp', width: 960, height: 640 },
    ]);
  });

  it('never upscales: a 700 px image gets only the 480 px copy, a 400 px image none', async () => {
    const medium = await variantsOfUpload(700, 350);
    expect([medium.width, medium.height]).toEqual([700, 350]);
    expect(medium.widths.map((variant) => variant.width)).toEqual([480]);
    expect(await sizeOf(medium.widths[0]!.data)).toEqual({ format: 'webp', width: 480, height: 240 });

    const small = await variantsOfUpload(400, 300);
    expect([small.width, small.height]).toEqual([400, 300]);
    expect(small.widths).toEqual([]);
  });

  it('an image exactly as wide as a variant width gets no copy of the same size', async () => {
    const exact = await variantsOfUpload(960, 540);
    expect(exact.widths.map((variant) => variant.width)).toEqual([480]);
    expect(variantWidthsFor(960)).toEqual([480]);
    expect(variantWidthsFor(1600)).toEqual([...VARIANT_WIDTHS]);
  });

  it.each([
    [3000, 2000],
    [1600, 400],
    [300, 900],
    [40, 20],
  ])('crops a %i x %i upload to exactly 1200 x 630 for Open Graph', async (width, height) => {
    const { og } = await variantsOfUpload(width, height);
    expect(await sizeOf(og)).toEqual({ format: 'webp', width: OG_WIDTH, height: OG_HEIGHT });
  });

  it('refuses bytes that are not an image', async () => {
    await expect(renderImageVariants(Buffer.from('not an image'))).rejects.toThrow();
  });
});
