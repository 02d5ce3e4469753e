/** The spec shows only the part of `created_at` before the 'T' (the UTC date). */
export function createdDate(isoTimestamp: string): string {
  return isoTimestamp.split('T')[0] ?? isoTimestamp;
}

/** Both times are set by the same insert, so they differ only once the blog was edited. */
export function wasEdited(blog: { createdAt: string; updatedAt: string }): boolean {
  return Date.parse(blog.updatedAt) > Date.parse(blog.createdAt);
}
