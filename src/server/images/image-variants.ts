import type { Sharp } from 'sharp';
import { loadSharp } from '../memory/image-memory.js';
import { SHARP_OPTIONS } from './image-processing.js';

/**
 * Smaller copies of a stored image for `srcset`. The stored image itself (at most
 * `MAX_WIDTH`, 1600 px) is the largest entry, so it is not copied again.
 */
export const VARIANT_WIDTHS = [480, 960] as const;
/** The Open Graph size most sites and previewers expect (1.91:1). */
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

export interface ImageVariant {
  width: number;
  data: Buffer;
}

/** The variants' encodings, WebP by default and AVIF on request. */
const VARIANT_ENCODINGS = { webp: { quality: 80 }, avif: { quality: 55, effort: 4 } } as const;

export interface ImageVariants {
  /** The stored image's own size, which the page reserves before it loads. */
  width: number;
  height: number;
  /** Only widths below the image's own: nothing is upscaled. */
  widths: ImageVariant[];
  /** Exactly OG_WIDTH x OG_HEIGHT, cropped around the most interesting region. */
  og: Buffer;
}

/** The widths a picture `width` px wide gets variants at. */
export function variantWidthsFor(width: number): number[] {
  return VARIANT_WIDTHS.filter((candidate) => candidate < width);
}

/**
 * Makes the variants from an image already accepted by `processUploadedImage` (upright,
 * no metadata, WebP). New uploads and the backfill of older ones both come through here, so
 * the two can never differ.
 */
export async function renderImageVariants(stored: Buffer, format: 'webp' | 'avif' = 'webp'): Promise<ImageVariants> {
  const sharp = await loadSharp();
  const source = sharp(stored, SHARP_OPTIONS);
  const { width, height } = await source.metadata();
  const encode = (pipeline: Sharp) => (format === 'avif' ? pipeline.avif(VARIANT_ENCODINGS.avif) : pipeline.webp(VARIANT_ENCODINGS.webp)).toBuffer();

  const [widths, og] = await Promise.all([
    Promise.all(
      variantWidthsFor(width).map(async (variantWidth) => ({
        width: variantWidth,
        data: await encode(source.clone().resize({ width: variantWidth })),
      })),
    ),
    // The one variant that may be larger than the image: previewers want this exact size.
    encode(source.clone().resize({ width: OG_WIDTH, height: OG_HEIGHT, fit: 'cover', position: sharp.strategy.attention })),
  ]);
  return { width, height, widths, og };
}
