/**
 * What every stored image key looks like: one flat folder, URL-safe characters, no dots
 * before the extension. Checked by every storage so that no key can name a path outside it.
 */
const IMAGE_KEY_PATTERN = /^blogs\/[A-Za-z0-9][A-Za-z0-9_-]{0,199}\.webp$/;

export function isValidImageKey(key: string): boolean {
  return IMAGE_KEY_PATTERN.test(key);
}

/**
 * Keys come from `newImageKey`, never straight from a request, so a bad one is a bug (or
 * tampered data) and deserves a 500, not a message to the user.
 */
export function assertValidImageKey(key: string): void {
  if (!isValidImageKey(key)) throw new Error(`Invalid image key: ${JSON.stringify(key.slice(0, 300))}`);
}

/**
 * The key of a smaller copy of the image at `key`: `blogs/x.webp` → `blogs/x-w480.webp`.
 * Derived, never stored, so a blog row names all its files through its one key.
 */
export function variantImageKey(key: string, width: number): string {
  assertValidImageKey(key);
  return key.replace(/\.webp$/, `-w${width}.webp`);
}

/** The key of the Open Graph crop of the image at `key`: `blogs/x.webp` → `blogs/x-og.webp`. */
export function ogImageKey(key: string): string {
  assertValidImageKey(key);
  return key.replace(/\.webp$/, '-og.webp');
}
