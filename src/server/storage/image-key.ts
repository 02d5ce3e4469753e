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
