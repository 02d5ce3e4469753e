/**
 * Keys as `list` returns them: path segments of URL-safe characters and dots, never `.` or `..`,
 * never absolute, never a backslash. Broader than image keys (a temporary file starts with a dot
 * and holds several), never wide enough to name anything outside the store.
 */
const SEGMENT = /^[A-Za-z0-9._-]{1,255}$/;

export function isListedKey(key: string): boolean {
  if (key.length === 0 || key.length > 1024) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

export function assertListedKey(key: string): void {
  if (!isListedKey(key)) throw new Error(`Invalid stored key: ${JSON.stringify(key.slice(0, 300))}`);
}

/** A listing prefix: empty, or listed-key segments ending in `/`. */
export function assertListPrefix(prefix: string): void {
  if (prefix !== '' && !(prefix.endsWith('/') && isListedKey(prefix.slice(0, -1)))) {
    throw new Error(`Invalid listing prefix: ${JSON.stringify(prefix.slice(0, 300))}`);
  }
}
