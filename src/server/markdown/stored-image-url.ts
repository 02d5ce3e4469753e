// What may follow an allowed prefix: a stored object's key, with no `..` to climb out of it.
const STORED_IMAGE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9_./-]*$/;

/** Prefixes end in `/`, so `https://cdn.example` cannot vouch for `https://cdn.example.evil`. */
export function normaliseImagePrefixes(prefixes: readonly string[]): string[] {
  return prefixes.filter((prefix) => prefix !== '').map((prefix) => (prefix.endsWith('/') ? prefix : `${prefix}/`));
}

/** Whether `url` names an image this site stores: an allowed prefix, then a plain key. */
export function isStoredImageUrl(url: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => {
    if (!url.startsWith(prefix)) return false;
    const rest = url.slice(prefix.length);
    return STORED_IMAGE_PATH.test(rest) && !rest.split('/').includes('..');
  });
}
