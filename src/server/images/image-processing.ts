import type { Metadata, SharpOptions } from 'sharp';
import { payloadTooLarge, unsupportedMediaType } from '../errors.js';
import { loadSharp } from '../memory/image-memory.js';

/** The multipart route stops reading an upload past this many bytes. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const MAX_UPLOAD_MB = Math.round(MAX_UPLOAD_BYTES / (1024 * 1024));

/** The 413 for an upload past MAX_UPLOAD_BYTES, whichever form it came in. */
export const imageTooLarge = () => payloadTooLarge(`The image is too large: at most ${MAX_UPLOAD_MB} MB.`);
/** A few kilobytes of PNG can declare billions of pixels; refuse them before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000;
export const MAX_WIDTH = 1600;

const WEBP_QUALITY = 82;

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
  contentType: 'image/webp';
}

/** How every image is opened: bounded in pixels, strict about broken data. */
export const SHARP_OPTIONS: SharpOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  // 'error' refuses truncated and corrupt pixel data but still accepts the many camera
  // files that only raise decoder warnings.
  failOn: 'error',
};

const notAnImage = () =>
  unsupportedMediaType('The file is not an image we can read. Upload a JPEG, PNG, WebP, GIF or AVIF image.');
const tooManyPixels = () => payloadTooLarge('The image is too large: at most 40 megapixels.');

/**
 * Decodes an untrusted upload and re-encodes it as a WebP at most MAX_WIDTH wide, upright,
 * with no metadata (EXIF can carry the author's location). Throws 415 for anything that is
 * not a raster image we read, 413 for too many pixels. Animated images keep their first frame.
 */
export async function processUploadedImage(input: Buffer): Promise<ProcessedImage> {
  // Only the header is parsed here, so a decompression bomb is refused before any pixel is.
  const metadata = await readMetadata(input);
  if (!isAcceptedRaster(metadata)) throw notAnImage();
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) throw tooManyPixels();

  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(input, SHARP_OPTIONS)
      .autoOrient()
      .resize({ width: MAX_WIDTH, withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, contentType: 'image/webp' };
  } catch (error) {
    throw toUploadError(error);
  }
}

async function readMetadata(input: Buffer): Promise<Metadata> {
  const sharp = await loadSharp();
  try {
    return await sharp(input, SHARP_OPTIONS).metadata();
  } catch (error) {
    throw toUploadError(error);
  }
}

/**
 * SVG is refused although sharp reads it: it can carry script, and rendering it means
 * fetching and parsing far more than a photo. HEIF is accepted only as AVIF (AV1).
 */
function isAcceptedRaster(metadata: Metadata): boolean {
  switch (metadata.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
    case 'tiff':
      return true;
    case 'heif':
      return metadata.compression === 'av1';
    default:
      return false;
  }
}

// sharp reports every failure as a plain Error; its pixel-limit message is the only one
// that is the caller's size rather than an unreadable file.
function toUploadError(error: unknown) {
  if (error instanceof Error && /pixel limit/i.test(error.message)) return tooManyPixels();
  return notAnImage();
}
