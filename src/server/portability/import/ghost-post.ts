import { htmlToMarkdown } from '../../markdown/html-to-markdown.js';
import {
  givenToFallback,
  parseDate,
  personOf,
  personOrError,
  PostError,
  tagsOf,
  type FallbackAuthor,
  type ImportedComment,
  type ImportedPerson,
  type ImportedPost,
  type ReadItem,
} from './imported-post.js';
import { LexicalError, lexicalToHtml } from '../../markdown/lexical-to-html.js';

/**
 * One row of a Ghost export's `posts` as an imported post (or why not), given what the other
 * tables say about it. Kept apart from the reading of the file, which streams.
 */

export interface GhostUser {
  id: string;
  email?: unknown;
  name?: unknown;
}

export interface GhostLink {
  /** `tag_id` or `author_id`. */
  id: string;
  sort_order?: number | null;
}

export interface GhostCommentRow {
  id: string;
  parent_id?: string | null;
  author_email: unknown;
  author_name?: unknown;
  markdown: string;
  created_at: unknown;
}

/** What the export's other tables say, gathered before its posts are read. */
export interface GhostTables {
  users: ReadonlyMap<string, GhostUser>;
  tagNames: ReadonlyMap<string, unknown>;
  tagsByPost: ReadonlyMap<string, GhostLink[]>;
  authorsByPost: ReadonlyMap<string, GhostLink[]>;
  fallbackAuthor: FallbackAuthor | undefined;
}

/** This post's rows of our own two tables (`blogging_site_markdown`, `blogging_site_comments`). */
export interface GhostPostExtras {
  markdown?: string;
  comments: readonly GhostCommentRow[];
}

export function ghostPostLabel(raw: Record<string, unknown>): string {
  return typeof raw.title === 'string' && raw.title ? `"${raw.title.slice(0, 80)}" (id ${String(raw.id)})` : `id ${String(raw.id)}`;
}

/** Without `extras`, a post without its text or comments (a pass that only counts). */
export function ghostPostItem(raw: Record<string, unknown>, tables: GhostTables, extras: GhostPostExtras | undefined): ReadItem {
  const label = ghostPostLabel(raw);
  try {
    if (raw.type === 'page') return { skipped: { post: label, reason: 'a page, not a post (this site has blogs only)' } };
    if (raw.type !== undefined && raw.type !== null && raw.type !== 'post') return { skipped: { post: label, reason: `a Ghost ${String(raw.type)}, not a post` } };
    const postId = String(raw.id ?? raw.uuid ?? '');
    if (!postId) throw new PostError('id', 'missing');
    const notes: string[] = [];
    const author = authorOf(raw, postId, tables, notes);
    if (raw.title !== undefined && raw.title !== null && typeof raw.title !== 'string') throw new PostError('title', 'is not text');
    if (!['published', 'draft', 'scheduled', 'sent'].includes(String(raw.status))) throw new PostError('status', `${JSON.stringify(raw.status)} is not a Ghost status`);
    // Members-only and paid posts were never public: this site has no members, so they stay drafts.
    const visibility = typeof raw.visibility === 'string' ? raw.visibility : 'public';
    const published = raw.status === 'published' || raw.status === 'sent';
    const keptPrivate = published && visibility !== 'public' ? `for ${visibility === 'members' ? 'members' : `${visibility} members`} only in Ghost` : undefined;
    const publishedAt = parseDate(raw.published_at, 'published_at');
    const createdAt = parseDate(raw.created_at, 'created_at');
    const post: ImportedPost = {
      sourceId: postId,
      title: (raw.title as string | null | undefined) ?? '',
      ...(typeof raw.slug === 'string' && raw.slug ? { slug: raw.slug } : {}),
      body: extras ? (extras.markdown ?? bodyOf(raw, notes)) : '',
      status: published && !keptPrivate ? 'published' : 'draft',
      createdAt: published ? (publishedAt ?? createdAt) : createdAt,
      updatedAt: parseDate(raw.updated_at, 'updated_at'),
      tags: tagsOf(
        [...(tables.tagsByPost.get(postId) ?? [])]
          .sort(bySortOrder)
          .map((row) => tables.tagNames.get(row.id))
          // Ghost's internal tags (#hash) are not shown to readers.
          .filter((name): name is string => typeof name === 'string' && !name.startsWith('#')),
      ),
      author,
      coverImage: typeof raw.feature_image === 'string' && raw.feature_image ? raw.feature_image : null,
      comments: (extras?.comments ?? []).map(
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
      ...(notes.length ? { notes } : {}),
    };
    return { post };
  } catch (error) {
    if (!(error instanceof PostError)) throw error;
    return { problem: { post: label, field: error.field, message: error.message } };
  }
}

/**
 * The post's first author (`posts_authors` by `sort_order`, or Ghost 0.x's `author_id`). A post
 * whose author the export does not name is given, as Ghost's own importer gives it to the site's
 * owner, to `--owner` (the /import page's moderator), else the export's Owner or first
 * Administrator (`tables.fallbackAuthor`), and the report says so.
 */
function authorOf(raw: Record<string, unknown>, postId: string, tables: GhostTables, notes: string[]): ImportedPerson {
  const row = [...(tables.authorsByPost.get(postId) ?? [])].sort(bySortOrder)[0];
  const authorId = row?.id ?? (raw.author_id === undefined || raw.author_id === null ? undefined : String(raw.author_id));
  const user = authorId === undefined ? undefined : tables.users.get(authorId);
  if (user) return personOf(user.email, user.name, `users[${user.id}].email`);
  const missing = authorId === undefined ? 'the export names no author for it' : `its author ${authorId} is not among the export's users`;
  return givenToFallback(tables.fallbackAuthor, missing, { field: 'author', nobody: 'it has no Owner, Administrator or user' }, notes);
}

/** The post's HTML as Markdown; Ghost 5 may export a post as Lexical alone (`html` null), which is rendered first. */
function bodyOf(raw: Record<string, unknown>, notes: string[]): string {
  if (raw.html !== null && raw.html !== undefined && typeof raw.html !== 'string') throw new PostError('html', 'is not text');
  const html = typeof raw.html === 'string' ? raw.html : '';
  if (html.trim() || !hasContent(raw.lexical)) {
    if (!html.trim() && raw.mobiledoc) throw new PostError('html', 'missing (only mobiledoc): export again from Ghost 4 or later, which writes html');
    return htmlToMarkdown(html);
  }
  try {
    const rendered = lexicalToHtml(raw.lexical);
    if (rendered.keptAsText.length) notes.push(`Lexical cards this site does not know kept as their text: ${rendered.keptAsText.join(', ')}`);
    return htmlToMarkdown(rendered.html);
  } catch (error) {
    if (error instanceof LexicalError) throw new PostError('lexical', error.message);
    throw error;
  }
}

function hasContent(lexical: unknown): boolean {
  return (typeof lexical === 'string' && lexical.trim() !== '') || (typeof lexical === 'object' && lexical !== null);
}

/** Whom posts without an author go to when `--owner` is not given: the export's Owner, else its first Administrator, else (an export without roles) its first user. */
export function exportFallbackAuthor(
  users: readonly GhostUser[],
  roles: readonly { id: string; name?: unknown }[],
  rolesUsers: readonly { role_id: string; user_id: string }[],
): FallbackAuthor | undefined {
  const byId = new Map(users.map((user) => [user.id, user]));
  for (const role of ['Owner', 'Administrator']) {
    const roleIds = new Set(roles.filter((each) => each.name === role).map((each) => each.id));
    // The users table's order, as Ghost lists them, for "first".
    const holders = new Set(rolesUsers.filter((link) => roleIds.has(link.role_id)).map((link) => link.user_id));
    const user = users.find((each) => holders.has(each.id) && byId.has(each.id));
    if (user) return { person: personOfUser(user), why: role === 'Owner' ? "the export's Owner" : "the export's first Administrator" };
  }
  if (rolesUsers.length === 0 && users[0]) return { person: personOfUser(users[0]), why: "the export's first user; it names no Owner or Administrator" };
  return undefined;
}

export function bySortOrder(a: { sort_order?: number | null }, b: { sort_order?: number | null }) {
  return (a.sort_order ?? 0) - (b.sort_order ?? 0);
}

const personOfUser = (user: GhostUser) => personOrError(user.email, user.name, `users[${user.id}].email`);
