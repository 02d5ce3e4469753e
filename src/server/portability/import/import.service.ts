import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { blogDraftInputSchema, blogInputSchema } from '../../../shared/blog-schema.js';
import { COMMENT_MAX_LENGTH } from '../../../shared/constants.js';
import { insertBlog } from '../../core/blog-writes.repository.js';
import { slugWords } from '../../../shared/blog-slug.js';
import { recordBlogChange } from '../../core/blog-events.js';
import { renderBlogBody } from '../../core/blog-body.js';
import { renderCommentBody } from '../../core/comment-body.js';
import type { Database } from '../../db/schema.js';
import { removeStoredImage, storeUploadedImage, type StoredImage } from '../../images/stored-image.js';
import { inlineImageKeysOf } from '../../core/inline-images.js';
import { newImageKey, type ImageStorage } from '../../storage/storage.js';
import { findGhostJson, openGhostReader } from './ghost-reader.js';
import { DEFAULT_ARCHIVE_LIMITS, ImportRefused, openImportArchive, type ArchiveLimits, type ImportArchive } from './import-archive.js';
import type { ImportedComment, ImportedPerson, ImportedPost, ImportReader, OwnerOption, PostProblem, SkippedItem } from './imported-post.js';
import {
  findAccountIds,
  findImportedComments,
  findImportedPost,
  insertImportedComment,
  insertImportedInlineImage,
  insertPasswordlessAccount,
  recordImported,
  setImportedBlogDates,
} from './imports.repository.js';
import { isMarkdownName, openMarkdownReader } from './markdown-reader.js';
import { findWxr, openWxrReader } from './wxr-reader.js';

export interface ImportDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  log: FastifyBaseLogger;
}

/** `owner`: Markdown files whose front matter names no author, and Ghost and WordPress posts whose export names none, are this person's. */
export interface ImportOptions extends OwnerOption {
  dryRun?: boolean;
  /** The old site's address, for Ghost's `__GHOST_URL__` in links. */
  sourceUrl?: string;
  limits?: ArchiveLimits;
  /** One line per post as it is done (`would import …`, `imported …`, `failed …`). */
  onLine?: (line: string) => void;
  /** Posts done of all posts, once the file has been read through once. */
  onProgress?: (progress: { done: number; total: number }) => void;
}

export interface ImportReport {
  format: ImportReader['format'];
  source: string;
  dryRun: boolean;
  posts: { imported: number; unchanged: number; failed: number; skipped: number };
  comments: { imported: number; unchanged: number; skipped: number };
  /** E-mails of the accounts made (or, dry, that would be made). */
  accountsCreated: string[];
  images: { stored: number; remote: string[]; missing: string[]; failed: string[] };
  problems: PostProblem[];
  skipped: SkippedItem[];
  /** Posts published in their source for members only, imported as drafts (this site has no members). */
  keptPrivate: Array<{ post: string; reason: string }>;
  /** What was done to a post that its reader must know: given to another author, a card kept as text. */
  notes: Array<{ post: string; note: string }>;
  /** Lines of the file repaired so it could be read (WordPress XML that is not well-formed). */
  repairs: string[];
}

/** An image in Markdown: `![alt](url "title")` (turndown writes them so; hand-written ones mostly are). */
const IMAGE = /!\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const IMAGE_MAX_BYTES = 25 * 1024 * 1024;

/**
 * Imports one export (a file, a folder or a zip). The file is read through once first, writing
 * nothing: a malformed file, a zip bomb, a path leaving the archive or an XML entity is refused
 * then (`ImportRefused`), before anything is written. A dry run converts and checks each post on
 * that pass, as the import would; an import only counts them then (for its progress), and on a
 * second pass writes each post in a transaction of its own with its author's account, its tags,
 * images and comments, and a record of its source id, so a second run finds it and changes
 * nothing. A post that cannot be imported is named with its field in the report; the others go on.
 */
export async function runImport(deps: ImportDeps, file: string, options: ImportOptions = {}): Promise<ImportReport> {
  const archive = await openImportArchive(file, options.limits ?? DEFAULT_ARCHIVE_LIMITS);
  try {
    const reader = await readerFor(archive, options);
    try {
      if (options.dryRun) return await importAll(deps, archive, reader, { ...options, onProgress: undefined });
      const total = await countPosts(reader);
      return await importAll(deps, archive, reader, { ...options, total });
    } finally {
      await reader.close?.();
    }
  } finally {
    archive.close();
  }
}

async function readerFor(archive: ImportArchive, options: ImportOptions): Promise<ImportReader> {
  const lower = archive.label.toLowerCase();
  if (archive.names.length === 1 && lower.endsWith('.json')) return openGhostReader(archive, archive.names[0]!, options);
  if (archive.names.length === 1 && lower.endsWith('.xml')) return openWxrReader(archive, archive.names[0]!, options);
  const xml = findWxr(archive);
  if (xml) return openWxrReader(archive, xml, options);
  const json = findGhostJson(archive);
  if (json) return openGhostReader(archive, json, options);
  if (archive.names.some(isMarkdownName)) return openMarkdownReader(archive, options);
  throw new ImportRefused(
    `${path.basename(archive.label)}: no Ghost export (.json), WordPress export (.xml) or Markdown files (.md) found; nothing was imported.`,
  );
}

/** The posts an import will write or name (not the items it skips), read through without converting them. */
async function countPosts(reader: ImportReader): Promise<number> {
  let total = 0;
  for await (const item of reader.posts({ bodies: false })) if (!('skipped' in item)) total += 1;
  return total;
}

async function importAll(
  deps: ImportDeps,
  archive: ImportArchive,
  reader: ImportReader,
  options: ImportOptions & { total?: number },
): Promise<ImportReport> {
  const dryRun = options.dryRun === true;
  const report: ImportReport = {
    format: reader.format,
    source: '',
    dryRun,
    posts: { imported: 0, unchanged: 0, failed: 0, skipped: 0 },
    comments: { imported: 0, unchanged: 0, skipped: 0 },
    accountsCreated: [],
    images: { stored: 0, remote: [], missing: [], failed: [] },
    problems: [],
    keptPrivate: [],
    notes: [],
    repairs: [],
    skipped: [],
  };
  const line = options.onLine ?? (() => undefined);
  const wouldCreate = new Set<string>();
  let done = 0;
  for await (const item of reader.posts()) {
    report.source = reader.source;
    if ('skipped' in item) {
      report.posts.skipped += 1;
      report.skipped.push(item.skipped);
      line(`skipped\t${item.skipped.post}: ${item.skipped.reason}`);
      continue;
    }
    if ('problem' in item) {
      fail(report, item.problem, line);
    } else {
      const problem = await importPost(deps, archive, reader, item.post, { dryRun, report, wouldCreate, line });
      if (problem) fail(report, problem, line);
    }
    done += 1;
    if (options.total !== undefined) options.onProgress?.({ done, total: options.total });
  }
  report.source = reader.source;
  report.repairs = [...(reader.repairs?.() ?? [])];
  return report;
}

function fail(report: ImportReport, problem: PostProblem, line: (text: string) => void) {
  report.posts.failed += 1;
  report.problems.push(problem);
  line(`failed\t${problem.post}: ${problem.field}: ${problem.message}`);
}

interface PostContext {
  dryRun: boolean;
  report: ImportReport;
  wouldCreate: Set<string>;
  line: (text: string) => void;
}

async function importPost(deps: ImportDeps, archive: ImportArchive, reader: ImportReader, post: ImportedPost, ctx: PostContext): Promise<PostProblem | undefined> {
  const label = post.title ? `"${post.title.slice(0, 80)}"` : '(untitled)';
  const problem = (field: string, message: string): PostProblem => ({ post: `${label} (${reader.format} id ${post.sourceId})`, field, message });
  const existing = await findImportedPost(deps.db, reader.source, post.sourceId);
  if (existing) {
    const added = await importComments(deps, reader, existing, post.comments, ctx);
    ctx.report.posts.unchanged += 1;
    ctx.line(`unchanged\t${label}: imported before${added ? `; ${added} new comments` : ''}`);
    return undefined;
  }
  const schema = post.status === 'published' ? blogInputSchema : blogDraftInputSchema;
  const text = schema.safeParse({ title: post.title, blog: post.body });
  if (!text.success) {
    const issue = text.error.issues[0];
    return problem(issue?.path[0] === 'title' ? 'title' : 'content', issue?.message ?? 'not valid');
  }
  const images = await storeImages(deps, archive, reader, post, ctx);
  try {
    const body = reader.fixLinks ? reader.fixLinks(images.body) : images.body;
    const sizes = new Map(images.stored.filter((each) => each.url).map((each) => [each.url!, { width: each.image.width, height: each.image.height }]));
    const rendered = renderBlogBody(body, deps.storage, sizes);
    try {
      inlineImageKeysOf(rendered, deps.storage);
    } catch (error) {
      return problem('content', (error as Error).message);
    }
    if (ctx.dryRun) {
      ctx.report.posts.imported += 1;
      ctx.report.comments.imported += post.comments.length;
      ctx.report.images.stored += images.count;
      ctx.report.comments.skipped += post.skippedComments.length;
      if (post.keptPrivate) ctx.report.keptPrivate.push({ post: label, reason: post.keptPrivate });
      noteAll(ctx.report, label, post);
      ctx.line(`would import\t${label} (${post.status}${post.createdAt ? `, ${post.createdAt.toISOString()}` : ''}) by ${post.author.email}; ${post.tags.length} tags, ${images.count} images, ${post.comments.length} comments`);
      await noteAccounts(deps, ctx, [post.author, ...post.comments.map((c) => c.author)]);
      return undefined;
    }
    const inline = images.stored.filter((each) => each.url !== undefined);
    const cover = images.stored.find((each) => each.url === undefined)?.image ?? null;
    const blogId = await deps.db.transaction().execute(async (trx) => {
      const userId = await accountFor(trx, post.author, ctx);
      // The old site's address is kept where it is free (else `-2`…); one with nothing to keep gives way to the title's.
      const slug = slugWords(post.slug ?? '') || undefined;
      const id = await insertBlog(trx, { userId, title: text.data.title, slug, body, status: post.status, publishAt: null, tags: post.tags, rendered, image: cover });
      await setImportedBlogDates(trx, id, post);
      for (const each of inline) await insertImportedInlineImage(trx, { key: each.image.key, userId, blogId: id, width: each.image.width, height: each.image.height });
      await recordImported(trx, { source: reader.source, kind: 'post', sourceId: post.sourceId, blogId: id });
      // Its event (after the dates are set): the caches hear of it; mail and the fediverse leave an import alone.
      await recordBlogChange(trx, { blogId: id, before: null, origin: 'import' });
      return id;
    });
    ctx.report.posts.imported += 1;
    ctx.report.images.stored += images.stored.length;
    if (post.keptPrivate) ctx.report.keptPrivate.push({ post: label, reason: post.keptPrivate });
    noteAll(ctx.report, label, post);
    ctx.line(`imported\t${label} (${post.status}${post.keptPrivate ? `: ${post.keptPrivate}` : ''}) by ${post.author.email}`);
    await importComments(deps, reader, blogId, post.comments, ctx);
    ctx.report.comments.skipped += post.skippedComments.length;
    return undefined;
  } catch (error) {
    // Nothing of the post was written; its images go again.
    await Promise.all(images.stored.map((each) => removeStoredImage(deps.storage, each.image.key).catch(() => undefined)));
    if (error instanceof ImportRefused) throw error;
    deps.log.error({ err: error, post: post.sourceId }, 'import: a post could not be written');
    return problem('database', (error as Error).message);
  }
}

function noteAll(report: ImportReport, label: string, post: ImportedPost) {
  for (const note of post.notes ?? []) report.notes.push({ post: label, note });
}

/** Images the archive holds are stored through the upload pipeline; others stay links and are listed. */
async function storeImages(deps: ImportDeps, archive: ImportArchive, reader: ImportReader, post: ImportedPost, ctx: PostContext) {
  const stored: { url?: string; image: StoredImage }[] = [];
  const byUrl = new Map<string, string | null>();
  let count = 0;
  const store = async (url: string, asCover: boolean): Promise<string | null> => {
    if (!asCover && byUrl.has(url)) return byUrl.get(url)!;
    const name = reader.resolveImage(url, post);
    let result: string | null = null;
    if (name === undefined) {
      if (/^https?:\/\//i.test(url)) ctx.report.images.remote.push(url);
      else ctx.report.images.missing.push(`${url} (in ${post.sourceId})`);
    } else if (ctx.dryRun) {
      count += 1;
    } else {
      try {
        const data = await archive.read(name, IMAGE_MAX_BYTES);
        const image = await storeUploadedImage(deps.storage, newImageKey(name, 'import'), data);
        result = deps.storage.publicUrl(image.key);
        stored.push({ url: asCover ? undefined : result, image });
        count += 1;
      } catch (error) {
        if (error instanceof ImportRefused) throw error;
        ctx.report.images.failed.push(`${name}: ${(error as Error).message}`);
      }
    }
    if (!asCover) byUrl.set(url, result);
    return result;
  };
  if (post.coverImage) await store(post.coverImage, true);
  for (const match of post.body.matchAll(IMAGE)) await store(match[2]!, false);
  const body = post.body.replace(IMAGE, (whole, alt: string, url: string, title: string | undefined) => {
    const local = byUrl.get(url);
    return local ? `![${alt}](${local}${title ?? ''})` : whole;
  });
  return { body, stored, count: ctx.dryRun ? count : stored.length };
}

async function accountFor(trx: Parameters<typeof insertPasswordlessAccount>[0], person: ImportedPerson, ctx: PostContext): Promise<string> {
  const found = (await findAccountIds(trx, [person.email])).get(person.email);
  if (found) return found;
  const id = await insertPasswordlessAccount(trx, person);
  ctx.report.accountsCreated.push(person.email);
  return id;
}

async function noteAccounts(deps: ImportDeps, ctx: PostContext, people: ImportedPerson[]) {
  const emails = [...new Set(people.map((p) => p.email))].filter((email) => !ctx.wouldCreate.has(email));
  const found = await findAccountIds(deps.db, emails);
  for (const email of emails) {
    if (found.has(email)) continue;
    ctx.wouldCreate.add(email);
    ctx.report.accountsCreated.push(email);
  }
}

/**
 * The post's comments not imported yet, oldest first, each with its author's account; a reply to
 * a reply answers the top comment of its thread (our replies are one level deep).
 */
async function importComments(deps: ImportDeps, reader: ImportReader, blogId: string, comments: ImportedComment[], ctx: PostContext): Promise<number> {
  if (comments.length === 0) return 0;
  const known = await findImportedComments(deps.db, reader.source, comments.map((c) => c.sourceId));
  const fresh = [...comments].filter((c) => !known.has(c.sourceId)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  ctx.report.comments.unchanged += comments.length - fresh.length;
  if (ctx.dryRun) {
    ctx.report.comments.imported += fresh.length;
    return fresh.length;
  }
  let added = 0;
  for (const comment of fresh) {
    const body = comment.body.trim().slice(0, COMMENT_MAX_LENGTH);
    if (!body) {
      ctx.report.comments.skipped += 1;
      continue;
    }
    await deps.db.transaction().execute(async (trx) => {
      const userId = await accountFor(trx, comment.author, ctx);
      const parent = comment.parentSourceId ? known.get(comment.parentSourceId) : undefined;
      const parentId = parent ? (parent.parentId ?? parent.id) : null;
      const id = await insertImportedComment(trx, { blogId, userId, parentId, body, html: renderCommentBody(body), createdAt: comment.createdAt });
      await recordImported(trx, { source: reader.source, kind: 'comment', sourceId: comment.sourceId, commentId: id });
      known.set(comment.sourceId, { id, parentId });
    });
    added += 1;
  }
  ctx.report.comments.imported += added;
  return added;
}
