import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { htmlToMarkdown } from '../../markdown/html-to-markdown.js';
import { ImportRefused, type ImportArchive } from './import-archive.js';
import {
  givenToFallback,
  ownerFallback,
  parseDate,
  personOf,
  personOrError,
  PostError,
  tagsOf,
  type FallbackAuthor,
  type ImportedComment,
  type ImportedPerson,
  type ImportReader,
  type OwnerOption,
  type ReadItem,
} from './imported-post.js';
import { MAX_TEXT_BYTES, MAX_TEXT_LABEL } from './text-cap.js';
import { XmlRepair } from './xml-repair.js';

/** The one WordPress export (`.xml`) of an archive. */
export function findWxr(archive: ImportArchive): string | undefined {
  const xml = archive.names.filter((name) => name.toLowerCase().endsWith('.xml'));
  return xml.length === 1 ? xml[0] : undefined;
}

/** Text fields of one element, by tag name (the last one wins; `category` collects). */
interface Element {
  fields: Map<string, string>;
  categories: { domain: string; name: string }[];
  comments: Map<string, string>[];
}

/**
 * A WordPress WXR file, read as a stream by saxes (a SAX parser that never expands entities
 * from a DTD and never fetches anything): an `<item>` is handed on as soon as it closes, so
 * the file is never held whole. Any `<!DOCTYPE>` is refused outright: WXR has none, and it
 * is how entity bombs (billion laughs) and external entities (XXE) arrive. What makes a real
 * export not well-formed (a bare `&`, an HTML entity, a control character) is repaired on the
 * way in (`XmlRepair`), and the report names each line repaired.
 *
 * A post whose `<dc:creator>` is no `<wp:author>` of the export goes to `--owner` (the /import
 * page's moderator), else to the export's first author by `<wp:author_id>`: WXR says nothing of
 * roles, and WordPress's first user is the administrator who installed the site.
 */
export function openWxrReader(archive: ImportArchive, xmlName: string, options: OwnerOption = {}): ImportReader {
  let site = 'export';
  let repair: XmlRepair | undefined;
  const xmlDir = path.posix.dirname(xmlName) === '.' ? '' : `${path.posix.dirname(xmlName)}/`;
  return {
    format: 'wordpress',
    get source() {
      return `wordpress:${site}`;
    },
    posts: (read) => {
      repair = new XmlRepair();
      return wxrItems(archive, xmlName, { repair, bodies: read?.bodies !== false, owner: ownerFallback(options) }, (link) => {
        site = link;
      });
    },
    repairs: () => repair?.repairs() ?? [],
    resolveImage: (url) => {
      const match = /(?:^|\/)(wp-content\/uploads\/[^?#]+)/.exec(url);
      if (!match) return undefined;
      const name = decodeURIComponent(match[1]!);
      // A resized copy (`photo-300x200.jpg`) is found as its original when only that was exported.
      const original = name.replace(/-\d+x\d+(\.[A-Za-z0-9]+)$/, '$1');
      return [`${xmlDir}${name}`, name, `${xmlDir}${original}`, original].find((each) => archive.has(each));
    },
  };
}

interface WxrPass {
  repair: XmlRepair;
  /** False: posts without their texts (a pass that only counts). */
  bodies: boolean;
  /** `--owner`, if given: before the export's first author for a post whose author it does not list. */
  owner: FallbackAuthor | undefined;
}

/** The `<wp:author>`s of the export, by login, and the first by `<wp:author_id>`. */
interface WxrAuthors {
  byLogin: Map<string, ImportedPerson | PostError>;
  first?: { id: number; author: FallbackAuthor };
}

async function* wxrItems(archive: ImportArchive, xmlName: string, pass: WxrPass, onSite: (link: string) => void): AsyncIterable<ReadItem> {
  const { repair } = pass;
  const parser = new SaxesParser({ xmlns: false, position: true });
  const authors: WxrAuthors = { byLogin: new Map() };
  const ready: ReadItem[] = [];
  const stack: string[] = [];
  let text = '';
  let item: Element | undefined;
  let comment: Map<string, string> | undefined;
  let author: Map<string, string> | undefined;
  let sawRss = false;
  let failure: Error | undefined;
  // saxes gathers a text, a CDATA section or a tag whole before it hands it on: where it has
  // handed nothing on for longer than any text may be, the file is refused before it grows more.
  let lastSeen = 0;
  // What a hostile file could make the reader hold: one text, and all an item's texts together
  // (counted in characters, up to 3 bytes each in UTF-8: still far below a machine's memory).
  let itemChars = 0;
  const seen = () => {
    lastSeen = parser.position;
  };
  const refuse = (message: string) => new ImportRefused(`${xmlName}, line ${parser.line}: ${message}; nothing was imported.`);

  parser.on('doctype', () => {
    failure ??= refuse('the file declares a DTD (<!DOCTYPE …>); a WordPress export has none, and entity declarations (entity bombs, external entities) are refused');
  });
  parser.on('error', (err) => {
    failure ??= refuse(`not well-formed XML (${err.message.replace(/^(?:.*?:)?\d+:\d+: /, '')})`);
  });
  parser.on('opentag', (tag) => {
    seen();
    if (stack.length === 0) {
      if (tag.name !== 'rss') failure ??= refuse(`the root element is <${tag.name}>, not a WordPress export's <rss>`);
      sawRss = true;
    }
    stack.push(tag.name);
    text = '';
    if (tag.name === 'item' && stack.length === 3) {
      item = { fields: new Map(), categories: [], comments: [] };
      itemChars = 0;
    }
    else if (tag.name === 'wp:comment' && item) comment = new Map();
    else if (tag.name === 'wp:author' && !item) author = new Map();
    else if (tag.name === 'category' && item) (item as Element & { pendingDomain?: string }).pendingDomain = String(tag.attributes.domain ?? 'category');
  });
  const gather = (chunk: string) => {
    seen();
    if (item) itemChars += chunk.length;
    if (text.length + chunk.length > MAX_TEXT_BYTES) failure ??= refuse(`<${stack.at(-1) ?? '?'}> holds a text longer than ${MAX_TEXT_LABEL} (no post does)`);
    else if (itemChars > 2 * MAX_TEXT_BYTES) failure ??= refuse(`an <item> holds more than ${MAX_TEXT_LABEL} twice over (no post does)`);
    else text += chunk;
  };
  parser.on('text', gather);
  parser.on('cdata', gather);
  parser.on('comment', seen);
  parser.on('processinginstruction', seen);
  parser.on('closetag', (tag) => {
    seen();
    stack.pop();
    const name = tag.name;
    if (comment && name !== 'wp:comment') comment.set(name, text);
    else if (comment && name === 'wp:comment') {
      item?.comments.push(comment);
      comment = undefined;
    } else if (author && name !== 'wp:author') author.set(name, text);
    else if (author && name === 'wp:author') {
      addAuthor(authors, author);
      author = undefined;
    } else if (item && name === 'category') {
      item.categories.push({ domain: (item as Element & { pendingDomain?: string }).pendingDomain ?? 'category', name: text.trim() });
    } else if (item && name === 'item') {
      ready.push(toReadItem(item, pass.owner ?? authors.first?.author, authors.byLogin, pass.bodies));
      item = undefined;
    } else if (item && stack.length === 3) item.fields.set(name, text);
    else if (!item && name === 'link' && stack.length === 2) onSite(text.trim());
    text = '';
  });

  const stream = await archive.open(xmlName);
  // A character's bytes may be split between two chunks.
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parser.write(repair.write(decoder.write(chunk)));
      if (parser.position - lastSeen > MAX_TEXT_BYTES) failure ??= refuse(`a text, tag or CDATA section longer than ${MAX_TEXT_LABEL} (no post holds one)`);
      if (failure) throw failure;
      yield* ready.splice(0);
    }
    parser.write(repair.write(decoder.end()) + repair.end());
    parser.close();
    if (failure) throw failure;
    if (!sawRss) throw refuse('empty, not a WordPress export');
    yield* ready.splice(0);
  } finally {
    stream.destroy();
  }
}

function addAuthor(authors: WxrAuthors, fields: Map<string, string>) {
  const login = fields.get('wp:author_login') ?? '';
  const person = personOrError(fields.get('wp:author_email'), fields.get('wp:author_display_name') || login, `wp:author ${login}: wp:author_email`);
  authors.byLogin.set(login, person);
  const idText = fields.get('wp:author_id')?.trim() ?? '';
  // Without ids, the first listed.
  const id = /^-?\d+$/.test(idText) ? Number(idText) : Number.POSITIVE_INFINITY;
  if (!authors.first || id < authors.first.id) {
    authors.first = { id, author: { person, why: `the export's first author${Number.isFinite(id) ? ` (wp:author_id ${id})` : ''}` } };
  }
}

function toReadItem(item: Element, fallback: FallbackAuthor | undefined, authors: ReadonlyMap<string, ImportedPerson | PostError>, bodies: boolean): ReadItem {
  const markdown = (html: string | undefined) => (bodies ? htmlToMarkdown(html ?? '') : '');
  const f = (name: string) => item.fields.get(name)?.trim() ?? '';
  const title = f('title');
  const label = title ? `"${title.slice(0, 80)}" (wp:post_id ${f('wp:post_id')})` : `wp:post_id ${f('wp:post_id') || '?'}`;
  const type = f('wp:post_type') || 'post';
  const status = f('wp:status');
  if (type !== 'post') return { skipped: { post: label, reason: `a WordPress ${type}, not a post` } };
  if (status === 'trash' || status === 'auto-draft') return { skipped: { post: label, reason: `in WordPress's ${status}` } };
  try {
    const sourceId = f('wp:post_id');
    if (!/^\d+$/.test(sourceId)) throw new PostError('wp:post_id', `${JSON.stringify(sourceId)} is not a post id`);
    const login = f('dc:creator');
    const notes: string[] = [];
    const found =
      authors.get(login) ??
      givenToFallback(fallback, login ? `its author ${JSON.stringify(login)} is not among the export's <wp:author>s` : 'it names no author (<dc:creator>)', { field: 'dc:creator', nobody: 'the export lists no <wp:author>' }, notes);
    if (found instanceof PostError) throw found;
    const published = status === 'publish';
    const skippedComments: string[] = [];
    const comments: ImportedComment[] = [];
    for (const c of item.comments) {
      const g = (name: string) => c.get(name)?.trim() ?? '';
      const id = g('wp:comment_id');
      if (g('wp:comment_approved') !== '1') {
        skippedComments.push(`comment ${id}: not approved (${g('wp:comment_approved') || 'pending'})`);
        continue;
      }
      if (g('wp:comment_type') && g('wp:comment_type') !== 'comment') {
        skippedComments.push(`comment ${id}: a ${g('wp:comment_type')}`);
        continue;
      }
      let commenter: ImportedPerson;
      try {
        commenter = personOf(g('wp:comment_author_email'), g('wp:comment_author'), `wp:comment ${id}: wp:comment_author_email`);
      } catch {
        skippedComments.push(`comment ${id} by ${g('wp:comment_author') || 'nobody'}: no e-mail address to make an account with`);
        continue;
      }
      comments.push({
        sourceId: id,
        parentSourceId: g('wp:comment_parent') && g('wp:comment_parent') !== '0' ? g('wp:comment_parent') : null,
        author: commenter,
        body: markdown(c.get('wp:comment_content')),
        createdAt: wpDate(g('wp:comment_date_gmt'), g('wp:comment_date'), `wp:comment ${id}: wp:comment_date_gmt`) ?? new Date(0),
      });
    }
    return {
      post: {
        sourceId,
        title,
        // WordPress keeps a non-ASCII slug percent-encoded.
        ...(f('wp:post_name') ? { slug: decodedSlug(f('wp:post_name')) } : {}),
        body: markdown(item.fields.get('content:encoded')),
        status: published ? 'published' : 'draft',
        createdAt: wpDate(f('wp:post_date_gmt'), f('wp:post_date'), 'wp:post_date_gmt') ?? parseDate(f('pubDate'), 'pubDate'),
        updatedAt: wpDate(f('wp:post_modified_gmt'), f('wp:post_modified'), 'wp:post_modified_gmt'),
        // Categories first (WordPress's main filing), then tags; `Uncategorized` says nothing.
        tags: tagsOf(
          [...item.categories.filter((c) => c.domain === 'category'), ...item.categories.filter((c) => c.domain === 'post_tag')]
            .map((c) => c.name)
            .filter((name) => name.toLowerCase() !== 'uncategorized'),
        ),
        author: found,
        coverImage: null,
        comments,
        skippedComments,
        ...(notes.length ? { notes } : {}),
      },
    };
  } catch (error) {
    if (!(error instanceof PostError)) throw error;
    return { problem: { post: label, field: error.field, message: error.message } };
  }
}

/** WordPress dates: `2008-09-01 19:00:00` in UTC (`…_gmt`; all zeros on drafts), else the site's local time taken as UTC. */
function wpDate(gmt: string, local: string, field: string): Date | null {
  const value = gmt && !gmt.startsWith('0000') ? gmt : local && !local.startsWith('0000') ? local : '';
  if (!value) return null;
  return parseDate(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value) ? `${value.replace(' ', 'T')}Z` : value, field);
}

function decodedSlug(postName: string): string {
  try {
    return decodeURIComponent(postName);
  } catch {
    return postName;
  }
}
