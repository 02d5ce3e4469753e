import path from 'node:path';
import type { Readable } from 'node:stream';
import { JSONParser } from '@streamparser/json';
import { z } from 'zod';
import { bySortOrder, exportFallbackAuthor, ghostPostItem, type GhostCommentRow, type GhostLink, type GhostTables, type GhostUser } from './ghost-post.js';
import { ImportRefused, type ImportArchive } from './import-archive.js';
import { ownerFallback, type ImportReader, type OwnerOption, type ReadItem } from './imported-post.js';
import { SpillFile, type SpillRef } from './spill-file.js';
import { JsonStringCap, MAX_TEXT_LABEL } from './text-cap.js';

/**
 * A Ghost export (Labs → Export: `{"db":[{"meta":…,"data":{…}}]}`, or without the `db` wrapper),
 * read as a stream, never whole: Ghost writes its tables in alphabetical order, so `posts` comes
 * before the `users`, `tags` and links that say who wrote them. A first pass (when the reader is
 * opened, before anything is written) reads every table but the posts, checks the file is JSON
 * and a Ghost export, and keeps the small tables in memory and our own two large ones
 * (`blogging_site_markdown`, `blogging_site_comments`) on disk; each later pass
 * (`posts()`) streams the posts one by one (`@streamparser/json`, which drops each once handed on).
 */

const id = z.union([z.string(), z.number()]).transform(String);
const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

/** The rows of the tables read beside the posts; each post's own fields are checked one by one, so one bad post names its field. */
const rowSchemas = {
  users: loose({ id, email: z.unknown().optional(), name: z.unknown().optional() }),
  tags: loose({ id, name: z.unknown() }),
  posts_tags: loose({ post_id: id, tag_id: id, sort_order: z.number().nullish() }),
  posts_authors: loose({ post_id: id, author_id: id, sort_order: z.number().nullish() }),
  roles: loose({ id, name: z.unknown().optional() }),
  roles_users: loose({ role_id: id, user_id: id }),
  /** Our own extension (see the export): comments with their authors. Ghost ignores unknown tables. */
  blogging_site_comments: loose({ id, post_id: id, parent_id: id.nullish(), author_email: z.unknown(), author_name: z.unknown().optional(), markdown: z.string(), created_at: z.unknown() }),
  /** Our own extension too: each post's Markdown as written, preferred to its HTML on import. */
  blogging_site_markdown: loose({ post_id: id, markdown: z.string() }),
};
type Table = keyof typeof rowSchemas;
const TABLES = Object.keys(rowSchemas) as Table[];

/** Where the tables are: under `db[0].data` (Ghost's own exports) or `data`. */
type Layout = '$.db.0' | '$';
const LAYOUTS: readonly Layout[] = ['$.db.0', '$'];
const EXPECTED = 'expected {"db":[{"data":{"posts":[…]}}]} or {"data":{"posts":[…]}}';

/** The Ghost JSON inside an archive: the one file whose name ends in `.json` (a Ghost export zip has one). */
export function findGhostJson(archive: ImportArchive): string | undefined {
  const json = archive.names.filter((name) => name.toLowerCase().endsWith('.json') && !name.includes('content/'));
  return json.length === 1 ? json[0] : undefined;
}

/** `owner`: posts whose author the export does not name become this person's (`--owner`, the /import page's moderator). */
export interface GhostReaderOptions extends OwnerOption {
  sourceUrl?: string;
}

export async function openGhostReader(archive: ImportArchive, jsonName: string, options: GhostReaderOptions = {}): Promise<ImportReader> {
  const spill = SpillFile.create();
  let sides: GhostSides;
  try {
    sides = await readSides(archive, jsonName, spill);
  } catch (error) {
    spill.close();
    throw error;
  }
  const fallbackAuthor = ownerFallback(options) ?? exportFallbackAuthor(sides.users, sides.roles, sides.rolesUsers);
  const tables: GhostTables = { ...sides.tables, fallbackAuthor };
  // Ghost's placeholder for the site's own address; links to the old site become root-relative without --source-url.
  const base = (options.sourceUrl ?? '').replace(/\/+$/, '');
  const jsonDir = path.posix.dirname(jsonName) === '.' ? '' : `${path.posix.dirname(jsonName)}/`;
  return {
    format: 'ghost',
    source: `ghost:${sides.siteUrl ?? 'export'}`,
    posts: (read) => ghostPosts(archive, jsonName, sides, tables, read?.bodies === false ? undefined : spill),
    resolveImage: (url) => {
      const match = /^(?:__GHOST_URL__|https?:\/\/[^/]+)?\/?(content\/images\/[^?#]+)/.exec(url);
      if (!match) return undefined;
      const name = decodeURIComponent(match[1]!);
      return [`${jsonDir}${name}`, name].find((each) => archive.has(each));
    },
    fixLinks: (markdown) => markdown.replaceAll('__GHOST_URL__', base),
    close: async () => spill.close(),
  };
}

/** What the first pass keeps: the tables beside the posts, and where our own large ones lie on disk. */
interface GhostSides {
  layout: Layout;
  siteUrl?: string;
  tables: Omit<GhostTables, 'fallbackAuthor'>;
  users: GhostUser[];
  roles: Array<{ id: string; name?: unknown }>;
  rolesUsers: Array<{ role_id: string; user_id: string }>;
  markdown: Map<string, SpillRef>;
  comments: Map<string, SpillRef[]>;
}

async function readSides(archive: ImportArchive, jsonName: string, spill: SpillFile): Promise<GhostSides> {
  const users: GhostUser[] = [];
  const tagNames = new Map<string, unknown>();
  const tagsByPost = new Map<string, GhostLink[]>();
  const authorsByPost = new Map<string, GhostLink[]>();
  const roles: GhostSides['roles'] = [];
  const rolesUsers: GhostSides['rolesUsers'] = [];
  const markdown = new Map<string, SpillRef>();
  const comments = new Map<string, SpillRef[]>();
  let layout: Layout | undefined;
  let siteUrl: string | undefined;
  let posts = 0;
  let meta = false;
  const paths = LAYOUTS.flatMap((at) => [`${at}.meta`, `${at}.data.posts.*`, ...TABLES.map((table) => `${at}.data.${table}.*`)]);
  await parseJson(archive, jsonName, paths, ({ value, key, stack }) => {
    const at: Layout = stack[1]?.key === 'db' ? '$.db.0' : '$';
    if (layout !== undefined && layout !== at) throw refused(jsonName, 'it holds both {"db":[{"data":…}]} and {"data":…}; nothing was imported.');
    layout = at;
    const table = String(stack.at(-1)?.key);
    if (key === 'meta' && (stack.length === 1 || (stack.length === 3 && stack[1]?.key === 'db'))) {
      meta = true;
      const url = (value as { site_url?: unknown } | null)?.site_url;
      if (typeof url === 'string') siteUrl = url;
      return;
    }
    const where = `${table}[${String(key)}]`;
    if (typeof key !== 'number') throw refused(jsonName, `is not a Ghost export: ${table}: not a list; ${EXPECTED}; nothing was imported.`);
    if (table === 'posts') {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw refused(jsonName, `is not a Ghost export: ${where}: not a post (an object); ${EXPECTED}; nothing was imported.`);
      posts += 1;
      return;
    }
    const parsed = rowSchemas[table as Table].safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw refused(jsonName, `is not a Ghost export: ${where}${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'not valid'}; ${EXPECTED}; nothing was imported.`);
    }
    const row = parsed.data as Record<string, unknown> & { id: string; post_id: string };
    const push = <T>(map: Map<string, T[]>, k: string, item: T) => {
      const list = map.get(k);
      if (list) list.push(item);
      else map.set(k, [item]);
    };
    switch (table as Table) {
      case 'users':
        users.push(row as GhostUser);
        break;
      case 'tags':
        tagNames.set(row.id, row.name);
        break;
      case 'posts_tags':
        push(tagsByPost, row.post_id, { id: String(row.tag_id), sort_order: row.sort_order as number | null | undefined });
        break;
      case 'posts_authors':
        push(authorsByPost, row.post_id, { id: String(row.author_id), sort_order: row.sort_order as number | null | undefined });
        break;
      case 'roles':
        roles.push(row as GhostSides['roles'][number]);
        break;
      case 'roles_users':
        rolesUsers.push(row as unknown as GhostSides['rolesUsers'][number]);
        break;
      case 'blogging_site_markdown':
        markdown.set(row.post_id, spill.append(row.markdown as string));
        break;
      case 'blogging_site_comments':
        push(comments, row.post_id, spill.append(JSON.stringify(row)));
        break;
    }
  });
  if (layout === undefined || (posts === 0 && !meta && users.length === 0)) throw refused(jsonName, `is not a Ghost export: no posts; ${EXPECTED}; nothing was imported.`);
  for (const list of [...tagsByPost.values(), ...authorsByPost.values()]) list.sort(bySortOrder);
  return { layout, siteUrl, tables: { users: new Map(users.map((user) => [user.id, user])), tagNames, tagsByPost, authorsByPost }, users, roles, rolesUsers, markdown, comments };
}

/** Without `spill`, the posts come without their texts (`bodies: false`). */
async function* ghostPosts(archive: ImportArchive, jsonName: string, sides: GhostSides, tables: GhostTables, spill: SpillFile | undefined): AsyncIterable<ReadItem> {
  const rows: Array<Record<string, unknown>> = [];
  const items = parseJsonItems(archive, jsonName, [`${sides.layout}.data.posts.*`], ({ value }) => {
    rows.push(value as Record<string, unknown>);
  });
  for await (const _ of items) {
    for (const raw of rows.splice(0)) {
      if (!spill) {
        yield ghostPostItem(raw, tables, undefined);
        continue;
      }
      const postId = String(raw.id ?? raw.uuid ?? '');
      const markdown = sides.markdown.get(postId);
      const comments = (sides.comments.get(postId) ?? []).map((ref) => JSON.parse(spill.read(ref)) as GhostCommentRow);
      yield ghostPostItem(raw, tables, { markdown: markdown && spill.read(markdown), comments });
    }
  }
}

interface Found {
  value: unknown;
  key: string | number | undefined;
  stack: ReadonlyArray<{ key?: string | number | undefined }>;
}

const refused = (jsonName: string, message: string) => new ImportRefused(`${jsonName} ${message}`);

/** Streams the file through the parser, handing each value at `paths` to `onValue` (which may throw to stop). */
async function parseJson(archive: ImportArchive, jsonName: string, paths: string[], onValue: (found: Found) => void): Promise<void> {
  for await (const _ of parseJsonItems(archive, jsonName, paths, onValue));
}

/** The same, pausing after each chunk of the file, so the values it gave can be handled before the next is read. */
async function* parseJsonItems(archive: ImportArchive, jsonName: string, paths: string[], onValue: (found: Found) => void): AsyncIterable<void> {
  // Values are dropped once handed on (keepStack false); strings are gathered in a 64 kB buffer, not by concatenation.
  const parser = new JSONParser({ paths, keepStack: false, stringBufferSize: 64 * 1024 });
  let failure: unknown;
  parser.onValue = (found) => {
    if (failure !== undefined) return;
    try {
      onValue(found as Found);
    } catch (error) {
      failure = error;
    }
  };
  const stream: Readable = await archive.open(jsonName);
  const notJson = (error: unknown) => refused(jsonName, `is not JSON (${(error as Error).message}); nothing was imported.`);
  const cap = new JsonStringCap();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!cap.accepts(chunk)) throw refused(jsonName, `holds a text longer than ${MAX_TEXT_LABEL} (no post is); nothing was imported.`);
      try {
        if (!parser.isEnded) parser.write(chunk);
      } catch (error) {
        throw notJson(error);
      }
      if (failure !== undefined) throw failure;
      yield;
    }
    try {
      if (!parser.isEnded) parser.end();
    } catch (error) {
      throw notJson(error);
    }
    if (failure !== undefined) throw failure;
  } finally {
    stream.destroy();
  }
}
