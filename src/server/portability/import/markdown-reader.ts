import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { archiveName, type ImportArchive } from './import-archive.js';
import { parseDate, personOf, PostError, tagsOf, type ImportedPerson, type ImportReader, type ReadItem } from './imported-post.js';

/** One Markdown file's cap: a blog is at most 100,000 characters, front matter included generously. */
const MARKDOWN_FILE_MAX_BYTES = 2 * 1024 * 1024;

export function isMarkdownName(name: string): boolean {
  return /\.(md|markdown)$/i.test(name) && !/(^|\/)(README|LICENSE|CHANGELOG)\.md$/i.test(name) && !/(^|\/)node_modules\//.test(name);
}

/**
 * A folder or zip of Markdown files with YAML front matter, as Jekyll, Hugo and Eleventy keep
 * them: `title`, `date`, `draft` (or Jekyll's `published: false`, or a `_drafts/` folder),
 * `tags` (and `categories`). The author is the front matter's `author_email` (or an `author`
 * that is an e-mail address), else `owner` (the CLI's `--owner`, the page's signed-in moderator).
 */
export function openMarkdownReader(archive: ImportArchive, options: { owner?: ImportedPerson }): ImportReader {
  return {
    format: 'markdown',
    source: 'markdown',
    posts: () => markdownPosts(archive, options.owner),
    resolveImage: (url, post) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return undefined;
      const clean = decodeURIComponent(url.replace(/[?#].*$/, ''));
      const dir = path.posix.dirname(post.sourceId);
      const candidates = clean.startsWith('/')
        ? [clean.slice(1), `static${clean}`, `public${clean}`, `assets${clean}`, `src${clean}`]
        : [path.posix.join(dir, clean)];
      return candidates.map((each) => archiveName(each)).find((each): each is string => each !== undefined && archive.has(each));
    },
  };
}

async function* markdownPosts(archive: ImportArchive, owner: ImportedPerson | undefined): AsyncIterable<ReadItem> {
  for (const name of archive.names.filter(isMarkdownName)) {
    try {
      const text = (await archive.read(name, MARKDOWN_FILE_MAX_BYTES)).toString('utf8');
      const { data, body } = splitFrontMatter(text);
      const title = stringField(data.title, 'title') ?? firstHeading(body) ?? path.posix.basename(name).replace(/\.[^.]+$/, '');
      const fileDate = /(?:^|\/)(\d{4}-\d\d-\d\d)-[^/]*$/.exec(name)?.[1];
      const date = parseDate(data.date ?? fileDate, 'date');
      const draft = booleanField(data.draft, 'draft') === true || data.published === false || /(^|\/)_drafts\//.test(name);
      const authorEmail = data.author_email ?? data.email ?? (typeof data.author === 'string' && data.author.includes('@') ? data.author : undefined);
      let author = owner;
      if (authorEmail !== undefined) author = personOf(authorEmail, typeof data.author === 'string' && !data.author.includes('@') ? data.author : undefined, 'author_email');
      if (!author) throw new PostError('author_email', 'no author: give the front matter an author_email, or run the import with --owner <e-mail>');
      yield {
        post: {
          sourceId: name,
          title,
          body: body.trim(),
          status: draft ? 'draft' : 'published',
          createdAt: date,
          updatedAt: parseDate(data.lastmod ?? data.updated, 'lastmod'),
          tags: tagsOf([...listField(data.tags, 'tags'), ...listField(data.categories, 'categories')].filter((tag) => tag !== 'post' && tag !== 'posts')),
          author,
          coverImage: stringField(data.image ?? data.cover ?? data.feature_image, 'image') ?? null,
          comments: [],
          skippedComments: [],
        },
      };
    } catch (error) {
      if (!(error instanceof PostError)) throw error;
      yield { problem: { post: name, field: error.field, message: error.message } };
    }
  }
}

/** The YAML between the first two `---` lines (TOML's `+++` is not read), and the rest. */
export function splitFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const source = text.replace(/^\uFEFF/, '');
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return { data: {}, body: source };
  let data: unknown;
  try {
    // Plain YAML: no custom tags, aliases capped (a YAML "billion laughs" is refused by the library).
    data = parseYaml(match[1]!, { maxAliasCount: 100, customTags: [] });
  } catch (error) {
    throw new PostError('front matter', `is not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) throw new PostError('front matter', 'is not a mapping of fields');
  return { data: (data ?? {}) as Record<string, unknown>, body: source.slice(match[0].length) };
}

function stringField(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new PostError(field, 'is not text');
}

function booleanField(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new PostError(field, `${JSON.stringify(value)} is not true or false`);
}

function listField(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(value) && value.every((each) => typeof each === 'string' || typeof each === 'number')) return value.map(String);
  throw new PostError(field, 'is not a list of words');
}

function firstHeading(body: string): string | undefined {
  return /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
}
