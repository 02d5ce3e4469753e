/** Business constants of the spec, shared by the server and the web. */
export const PAGE_SIZE = 5;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;
export const TITLE_MAX_LENGTH = 200;
export const BLOG_MAX_LENGTH = 20_000;
export const CONTACT_MESSAGE_MAX_LENGTH = 5_000;
export const EMAIL_MAX_LENGTH = 254;
export const SEARCH_TERM_MAX_LENGTH = 1_000;
/** Distinct words one search may hold: each is another index probe, and no title needs more. */
export const SEARCH_MAX_WORDS = 16;
/**
 * A search ranks at most this many matches; with more, its pages come highest rated first (the
 * home list's order, read from its index) instead of best match first. The total stays exact.
 */
export const SEARCH_COUNT_CAP = 1_000;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** A comment's Markdown, at most: a reply, not a second blog. */
export const COMMENT_MAX_LENGTH = 5_000;
/** Images a blog's text may show from this site's storage (uploaded from the editor). */
export const MAX_INLINE_IMAGES = 20;
