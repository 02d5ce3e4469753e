import { createHash } from 'node:crypto';
import type { SiteImageKind } from '../../shared/site-settings-form.js';
import { SHARP_OPTIONS } from '../images/image-processing.js';
import { loadSharp, withImageSlot } from '../memory/image-memory.js';
import { storeUploadedImage } from '../images/stored-image.js';
import { isValidImageKey } from '../storage/image-key.js';
import { newImageKey, type ImageStorage } from '../storage/storage.js';

/**
 * The site's logo and icon (issue 44) go through the blogs' image pipeline (size-capped, decoded
 * and re-encoded by sharp, metadata stripped) and are kept under keys of their own, which the
 * settings name; the storage sweep keeps what the settings name and removes a replaced one.
 */
const SITE_IMAGE_KEY = /^blogs\/site-(logo|icon)-/;

/** The sizes the favicon, the Apple touch icon and the manifest ask for, square PNGs made from the icon. */
export const ICON_SIZES = [32, 64, 180, 192, 512] as const;
export type IconSize = (typeof ICON_SIZES)[number];

export async function storeSiteImage(storage: ImageStorage, kind: SiteImageKind, data: Buffer): Promise<string> {
  const key = newImageKey(`site-${kind}`, 'site');
  await storeUploadedImage(storage, key, data);
  return key;
}

/** Whether `key` can name a logo or icon (one kept by `storeSiteImage`, of that kind). */
export function isSiteImageKey(key: string, kind: SiteImageKind): boolean {
  return isValidImageKey(key) && SITE_IMAGE_KEY.test(key) && key.startsWith(`blogs/site-${kind}-`);
}

/** The icon at one size, on the site (`/site-icon/192.png?v=…`: the version changes with the icon, so browsers may keep it). */
export function iconFileUrl(iconKey: string, size: IconSize): string {
  return `/site-icon/${size}.png?v=${createHash('sha256').update(iconKey).digest('hex').slice(0, 12)}`;
}

const rendered = new Map<string, Promise<Buffer | null>>();

/**
 * The icon as a square PNG of `size`, made from the stored icon once per process and size (null
 * when it is not stored). A handful of small files: the map holds the current icon's sizes only.
 */
export function iconPng(storage: ImageStorage, iconKey: string, size: IconSize): Promise<Buffer | null> {
  const id = `${iconKey}:${size}`;
  let png = rendered.get(id);
  if (!png) {
    for (const old of rendered.keys()) if (!old.startsWith(`${iconKey}:`)) rendered.delete(old);
    png = renderIcon(storage, iconKey, size).catch((err: unknown) => {
      rendered.delete(id);
      throw err;
    });
    rendered.set(id, png);
  }
  return png;
}

async function renderIcon(storage: ImageStorage, iconKey: string, size: IconSize): Promise<Buffer | null> {
  const stored = await storage.get(iconKey);
  if (!stored) return null;
  return withImageSlot(async () => {
    const sharp = await loadSharp();
    return sharp(stored, SHARP_OPTIONS).resize(size, size, { fit: 'cover' }).png().toBuffer();
  });
}
