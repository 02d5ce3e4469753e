/** The spec shows only the part of `created_at` before the 'T' (the UTC date). */
export function createdDate(isoTimestamp: string): string {
  return isoTimestamp.split('T')[0] ?? isoTimestamp;
}
