/**
 * What every reader (Ghost, WordPress, Markdown) turns its format into: posts with their author,
 * tags and comments, the text already in Markdown. The writer knows nothing of the formats.
 */

export interface ImportedPerson {
  /** Lowercase; the account is found or made by it. */
  email: string;
  name: string;
}

export interface ImportedComment {
  sourceId: string;
  /** The comment it answers (any depth in the export; the writer keeps our one level of replies). */
  parentSourceId: string | null;
  author: ImportedPerson;
  /** Markdown. */
  body: string;
  createdAt: Date;
}

export interface ImportedPost {
  /** Unique inside its source: the export's own id (or the file's path for Markdown). */
  sourceId: string;
  title: string;
  /** Its address on the old site (Ghost's `slug`, WordPress's `wp:post_name`), kept as its readable address (issue 58) where it is free. */
  slug?: string;
  /** Markdown; images may still name files of the archive or remote URLs (see `resolveImage`). */
  body: string;
  status: 'draft' | 'published';
  /** When it was published (drafts: when it was written); null lets the database say now. */
  createdAt: Date | null;
  updatedAt: Date | null;
  /** Already canonical (see `tagsOf`), at most five. */
  tags: string[];
  author: ImportedPerson;
  /** The cover image (Ghost's `feature_image`), as the export names it. */
  coverImage: string | null;
  comments: ImportedComment[];
  /** Comments of the export left out, each with why (no e-mail, not approved). */
  skippedComments: string[];
  /** Why the post is kept a draft although its source published it (it was for members only). */
  keptPrivate?: string;
  /** What the reader did that the report must say (given to another author, a card kept as text). */
  notes?: string[];
}

/** A post the reader could not make sense of: skipped, and named in the report with the field at fault. */
export interface PostProblem {
  post: string;
  field: string;
  message: string;
}

/** Something of the export that is deliberately not imported (a page, an attachment, a trashed post). */
export interface SkippedItem {
  post: string;
  reason: string;
}

export type ReadItem = { post: ImportedPost } | { problem: PostProblem } | { skipped: SkippedItem };

/** Says which archive file an image URL of a post names, or undefined when none. */
export type ImageResolver = (url: string, post: ImportedPost) => string | undefined;

export interface ImportReader {
  format: 'ghost' | 'wordpress' | 'markdown';
  /** Names the export (its format and, where it says, its site); with `sourceId`, a post's identity. */
  source: string;
  /**
   * The posts, one at a time, in the export's order; a malformed file throws `ImportRefused`.
   * With `bodies: false` their texts (and comments' texts) are left empty: a pass that only
   * counts the posts and checks the file saves converting each from HTML.
   */
  posts(options?: { bodies?: boolean }): AsyncIterable<ReadItem>;
  resolveImage: ImageResolver;
  /** Replaces placeholders of the old site's address in a post's links (Ghost's `__GHOST_URL__`). */
  fixLinks?(markdown: string): string;
  /** What the reader had to repair in the file to read it (WordPress XML that is not well-formed), one entry per line; read after `posts()`. */
  repairs?(): readonly string[];
  /** Frees what the reader keeps between its passes (temporary files). */
  close?(): Promise<void>;
}

export class PostError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** An export's person, or why it cannot be one (kept, to be reported with the post that needs it). */
export function personOrError(email: unknown, name: unknown, field: string): ImportedPerson | PostError {
  try {
    return personOf(email, name, field);
  } catch (error) {
    if (error instanceof PostError) return error;
    throw error;
  }
}

/** Whom a post goes to when its export names no author of its own, and why them: the report says both. */
export interface FallbackAuthor {
  person: ImportedPerson | PostError;
  why: string;
}

/** `--owner` (on the /import page, the moderator), the first choice of every reader for a post without an author. */
export interface OwnerOption {
  owner?: ImportedPerson;
  /** How the report names `owner` (default `--owner`). */
  ownerNote?: string;
}

export function ownerFallback(options: OwnerOption): FallbackAuthor | undefined {
  return options.owner ? { person: options.owner, why: options.ownerNote ?? '--owner' } : undefined;
}

/**
 * The author of a post whose export does not name one (`missing` says how): `fallback`, with a
 * note for the report; with none, the post is not imported, its `field` named and `nobody` said.
 */
export function givenToFallback(fallback: FallbackAuthor | undefined, missing: string, problem: { field: string; nobody: string }, notes: string[]): ImportedPerson {
  if (!fallback) throw new PostError(problem.field, `${missing}, and ${problem.nobody} to give it to: import with --owner <e-mail>`);
  if (fallback.person instanceof PostError) throw fallback.person;
  notes.push(`given to ${fallback.person.email} (${fallback.why}): ${missing}`);
  return fallback.person;
}

/** A date from an export, or a PostError naming the field. */
export function parseDate(value: unknown, field: string): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'number' ? value : String(value));
  if (Number.isNaN(date.getTime())) throw new PostError(field, `${JSON.stringify(String(value)).slice(0, 60)} is not a date`);
  return date;
}

/** Tags as we keep them: lowercase words joined by hyphens ('Getting Started' → `getting-started`), the first five. */
export function tagsOf(names: readonly string[]): string[] {
  const tags = names
    .map((name) =>
      name
        .normalize('NFC')
        .toLowerCase()
        .replace(/[^\p{Ll}\p{Lo}\p{Lm}\p{N}\p{M}]+/gu, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 30)
        .replace(/-+$/, ''),
    )
    .filter(Boolean);
  return [...new Set(tags)].slice(0, 5);
}

export function personOf(email: unknown, name: unknown, field: string): ImportedPerson {
  const address = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) throw new PostError(field, `${JSON.stringify(String(email ?? ''))} is not an e-mail address`);
  const display = typeof name === 'string' && name.trim() ? name.trim() : address.split('@')[0]!;
  return { email: address, name: display.slice(0, 100) };
}
