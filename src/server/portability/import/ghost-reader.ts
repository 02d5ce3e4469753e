import path from 'node:path';
import { z } from 'zod';
import { htmlToMarkdown } from './html-to-markdown.js';
import { ImportRefused, type ImportArchive } from './import-archive.js';
import { parseDate, personOf, PostError, tagsOf, type ImportedComment, type ImportedPost, type ImportReader, type ReadItem } from './imported-post.js';

/** A Ghost export is one JSON document, parsed whole (as Ghost's own importer does); this caps it. */
export const GHOST_JSON_MAX_BYTES = 512 * 1024 * 1024;

const id = z.union([z.string(), z.number()]).transform(String);
const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

/** Only what is needed to walk the file; each post's fields are checked one by one, so one bad post names its field. */
const ghostDataSchema = loose({
  posts: z.array(z.record(z.string(), z.unknown())),
  users: z.array(loose({ id, email: z.unknown().optional(), name: z.unknown().optional() })).default([]),
  tags: z.array(loose({ id, name: z.unknown() })).default([]),
  posts_tags: z.array(loose({ post_id: id, tag_id: id, sort_order: z.number().nullish() })).default([]),
  posts_authors: z.array(loose({ post_id: id, author_id: id, sort_order: z.number().nullish() })).default([]),
  /** Our own extension (see the export): comments with their authors. Ghost ignores unknown tables. */
  blogging_site_comments: z
    .array(loose({ id, post_id: id, parent_id: id.nullish(), author_email: z.unknown(), author_name: z.unknown().optional(), markdown: z.string(), created_at: z.unknown() }))
    .default([]),
  /** Our own extension too: each post's Markdown as written, preferred to its HTML on import. */
  blogging_site_markdown: z.array(loose({ post_id: id, markdown: z.string() })).default([]),
});
type GhostData = z.infer<typeof ghostDataSchema>;

const ghostFileSchema = z.union([
  loose({ db: z.array(loose({ data: ghostDataSchema, meta: loose({}).optional() })).min(1) }).transform((file) => file.db[0]!.data),
  loose({ data: ghostDataSchema, meta: loose({}).optional() }).transform((file) => file.data),
]);

/** The Ghost JSON inside an archive: the one file whose name ends in `.json` (a Ghost export zip has one). */
export function findGhostJson(archive: ImportArchive): string | undefined {
  const json = archive.names.filter((name) => name.toLowerCase().endsWith('.json') && !name.includes('content/'));
  return json.length === 1 ? json[0] : undefined;
}

export async function openGhostReader(archive: ImportArchive, jsonName: string, options: { sourceUrl?: string } = {}): Promise<ImportReader> {
  const text = (await archive.read(jsonName, GHOST_JSON_MAX_BYTES)).toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ImportRefused(`${jsonName} is not JSON (${(error as Error).message}); nothing was imported.`);
  }
  const parsed = ghostFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportRefused(
      `${jsonName} is not a Ghost export: ${issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'no posts'} (expected {"db":[{"data":{"posts":[…]}}]} or {"data":{"posts":[…]}}); nothing was imported.`,
    );
  }
  const data = parsed.data;
  // Ghost's placeholder for the site's own address; links to the old site become root-relative without --source-url.
  const base = (options.sourceUrl ?? '').replace(/\/+$/, '');
  const jsonDir = path.posix.dirname(jsonName) === '.' ? '' : `${path.posix.dirname(jsonName)}/`;
  return {
    format: 'ghost',
    source: `ghost:${siteOf(raw) ?? 'export'}`,
    posts: () => ghostPosts(data),
    resolveImage: (url) => {
      const match = /^(?:__GHOST_URL__|https?:\/\/[^/]+)?\/?(content\/images\/[^?#]+)/.exec(url);
      if (!match) return undefined;
      const name = decodeURIComponent(match[1]!);
      return [`${jsonDir}${name}`, name].find((each) => archive.has(each));
    },
    fixLinks: (markdown) => markdown.replaceAll('__GHOST_URL__', base),
  };
}

function siteOf(raw: unknown): string | undefined {
  const meta = (raw as { db?: { meta?: { site_url?: unknown } }[]; meta?: { site_url?: unknown } }).db?.[0]?.meta ?? (raw as { meta?: { site_url?: unknown } }).meta;
  return typeof meta?.site_url === 'string' ? meta.site_url : undefined;
}

async function* ghostPosts(data: GhostData): AsyncIterable<ReadItem> {
  const users = new Map(data.users.map((user) => [user.id, user]));
  const tags = new Map(data.tags.map((tag) => [tag.id, tag]));
  const tagsByPost = groupBy(data.posts_tags, (row) => row.post_id);
  const authorsByPost = groupBy(data.posts_authors, (row) => row.post_id);
  const commentsByPost = groupBy(data.blogging_site_comments, (row) => row.post_id);
  const markdownByPost = new Map(data.blogging_site_markdown.map((row) => [row.post_id, row.markdown]));
  for (const raw of data.posts) {
    const label = typeof raw.title === 'string' && raw.title ? `"${raw.title.slice(0, 80)}" (id ${String(raw.id)})` : `id ${String(raw.id)}`;
    try {
      if (raw.type === 'page') {
        yield { skipped: { post: label, reason: 'a page, not a post (this site has blogs only)' } };
        continue;
      }
      const postId = String(raw.id ?? raw.uuid ?? '');
      if (!postId) throw new PostError('id', 'missing');
      const authorRow = [...(authorsByPost.get(postId) ?? [])].sort(bySortOrder)[0];
      const authorId = authorRow?.author_id ?? (raw.author_id === undefined ? undefined : String(raw.author_id));
      const user = authorId === undefined ? undefined : users.get(authorId);
      if (!user) throw new PostError('author_id', `names no user of the export (${authorId ?? 'none'})`);
      const author = personOf(user.email, user.name, `users[${user.id}].email`);
      if (raw.html !== null && raw.html !== undefined && typeof raw.html !== 'string') throw new PostError('html', 'is not text');
      if (typeof raw.html !== 'string' && (raw.mobiledoc || raw.lexical)) {
        throw new PostError('html', 'missing (only mobiledoc/lexical): export again from Ghost 4 or later, which writes html');
      }
      if (raw.title !== undefined && raw.title !== null && typeof raw.title !== 'string') throw new PostError('title', 'is not text');
      if (!['published', 'draft', 'scheduled', 'sent'].includes(String(raw.status))) throw new PostError('status', `${JSON.stringify(raw.status)} is not a Ghost status`);
      // Members-only and paid posts were never public: this site has no members, so they stay drafts.
      const visibility = typeof raw.visibility === 'string' ? raw.visibility : 'public';
      const published = raw.status === 'published' || raw.status === 'sent';
      const keptPrivate = published && visibility !== 'public' ? `for ${visibility === 'members' ? 'members' : `${visibility} members`} only in Ghost` : undefined;
      const status = published && !keptPrivate ? 'published' : 'draft';
      const publishedAt = parseDate(raw.published_at, 'published_at');
      const createdAt = parseDate(raw.created_at, 'created_at');
      const post: ImportedPost = {
        sourceId: postId,
        title: (raw.title as string | null | undefined) ?? '',
        body: markdownByPost.get(postId) ?? htmlToMarkdown((raw.html as string | null | undefined) ?? ''),
        status,
        createdAt: published ? (publishedAt ?? createdAt) : createdAt,
        updatedAt: parseDate(raw.updated_at, 'updated_at'),
        tags: tagsOf(
          [...(tagsByPost.get(postId) ?? [])]
            .sort(bySortOrder)
            .map((row) => tags.get(row.tag_id)?.name)
            // Ghost's internal tags (#hash) are not shown to readers.
            .filter((name): name is string => typeof name === 'string' && !name.startsWith('#')),
        ),
        author,
        coverImage: typeof raw.feature_image === 'string' && raw.feature_image ? raw.feature_image : null,
        comments: (commentsByPost.get(postId) ?? []).map(
          (row): ImportedComment => ({
            sourceId: row.id,
            parentSourceId: row.parent_id ?? null,
            author: personOf(row.author_email, row.author_name, `blogging_site_comments[${row.id}].author_email`),
            body: row.markdown,
            createdAt: parseDate(row.created_at, `blogging_site_comments[${row.id}].created_at`) ?? new Date(0),
          }),
        ),
        skippedComments: [],
        ...(keptPrivate ? { keptPrivate } : {}),
      };
      yield { post };
    } catch (error) {
      if (!(error instanceof PostError)) throw error;
      yield { problem: { post: label, field: error.field, message: error.message } };
    }
  }
}

function bySortOrder(a: { sort_order?: number | null }, b: { sort_order?: number | null }) {
  return (a.sort_order ?? 0) - (b.sort_order ?? 0);
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
