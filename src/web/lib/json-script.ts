/**
 * JSON for a `<script type="application/json">` or `application/ld+json` element: `<`, `>` and
 * `&` only ever appear inside JSON strings, where their \u escapes mean the same, so no value can
 * close the element (`</script>`) or open a comment.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
