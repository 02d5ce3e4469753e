import type { FastifyBaseLogger } from 'fastify';
import type { Blog } from '../../shared/blog-schema.js';
import type { BlogForm, BlogWriting } from '../core/blog-writing.js';
import { htmlToMarkdown } from '../markdown/html-to-markdown.js';
import { LexicalError, lexicalToHtml } from '../markdown/lexical-to-html.js';
import { browsePosts, GhostError, readPost, toPost, type BrowseOptions, type ContentApiDeps, type PostRow } from './content-api.service.js';

/**
 * Ghost's Admin API's posts (issue 60, docs/apis.md): every blog, drafts and scheduled ones too,
 * read in the Content API's shape with its status; written through the blogs feature's services
 * (`core/blog-writing.ts`) as the site's own form writes them. Bodies come as HTML
 * (`?source=html`) or as Lexical, as Ghost 6 sends them, and are kept as the blog's Markdown.
 */
export interface AdminApiDeps extends ContentApiDeps {
  writing: BlogWriting;
}

/** A post as an app sends it: what this site reads of it (the rest of Ghost's fields are ignored, as Ghost ignores read-only ones). */
export interface PostInput {
  title?: unknown;
  html?: unknown;
  lexical?: unknown;
  mobiledoc?: unknown;
  status?: unknown;
  published_at?: unknown;
  updated_at?: unknown;
  tags?: unknown;
  authors?: unknown;
  feature_image?: unknown;
}

const invalid = (message: string) => new GhostError(422, 'ValidationError', message);

/** A status as Ghost names it: a draft with a time to publish is scheduled. */
function statusOf(row: Pick<PostRow, 'status' | 'publish_at'>): 'draft' | 'scheduled' | 'published' {
  return row.publish_at ? 'scheduled' : row.status === 'published' ? 'published' : 'draft';
}

/** The HTML as Lexical: one HTML card, which Ghost 6's editor opens and this site reads back. */
const lexicalOf = (html: string) =>
  JSON.stringify({ root: { children: [{ type: 'html', version: 1, html }], direction: null, format: '', indent: 0, type: 'root', version: 1 } });

function toAdminPost(deps: ContentApiDeps, row: PostRow): Record<string, unknown> {
  const status = statusOf(row);
  const post = toPost(deps, row, ['tags', 'authors']);
  return {
    ...post,
    lexical: lexicalOf(post.html),
    mobiledoc: null,
    status,
    published_at: status === 'published' ? post.published_at : status === 'scheduled' ? new Date(row.publish_at!).toISOString() : null,
    email_only: false,
    newsletter: null,
    email: null,
  };
}

export const browseAdminPosts = (deps: AdminApiDeps, options: BrowseOptions) => browsePosts(deps, options, 'admin', toAdminPost);
export const readAdminPost = (deps: AdminApiDeps, by: { id?: string; slug?: string }, options: BrowseOptions = {}) => readPost(deps, by, options, 'admin', toAdminPost);

const names = (list: unknown, field: 'name' | 'email'): string[] | undefined => {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) throw invalid(`Validation error, cannot save post: "${field === 'name' ? 'tags' : 'authors'}" must be a list.`);
  return list
    .map((item) => (typeof item === 'string' ? item : item && typeof item === 'object' ? ((item as Record<string, unknown>)[field] ?? (item as Record<string, unknown>).slug ?? (item as Record<string, unknown>).id) : undefined))
    .filter((value): value is string => typeof value === 'string' && value.trim() !== '');
};

/** The body as the blog's Markdown: HTML with `?source=html`, else Lexical; undefined when the post sends neither. */
function markdownOf(post: PostInput, source: string | undefined, publicUrl: string): string | undefined {
  let html: string | undefined;
  if (source === 'html' && typeof post.html === 'string') html = post.html;
  else if (typeof post.lexical === 'string') {
    try {
      html = lexicalToHtml(JSON.parse(post.lexical)).html;
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof LexicalError) throw invalid('Validation error, cannot save post: "lexical" is not Lexical’s JSON.');
      throw error;
    }
  } else if (post.mobiledoc !== undefined && post.mobiledoc !== null) throw invalid('Mobiledoc is not read here: send the post as HTML (?source=html) or as Lexical.');
  if (html === undefined) return undefined;
  // The site's own address in a link or an image is left out, so that its stored images are known as its own.
  return htmlToMarkdown(html).replaceAll(`](${publicUrl}/`, '](/');
}

/** What the post asks of its status: Ghost's draft, published, or scheduled at `published_at`. */
function statusFields(post: PostInput): Pick<BlogForm['fields'], 'status' | 'publishAt'> {
  if (post.status === undefined) return {};
  if (post.status === 'draft' || post.status === 'published') return { status: post.status };
  if (post.status === 'scheduled') {
    const at = typeof post.published_at === 'string' ? Date.parse(post.published_at) : NaN;
    if (!(at > Date.now())) throw invalid('Validation error, cannot save post: a scheduled post needs a "published_at" in the future.');
    return { publishAt: new Date(at).toISOString() };
  }
  throw invalid(`Validation error, cannot save post: "status" must be one of draft, published, scheduled.`);
}

async function imageOf(deps: AdminApiDeps, post: PostInput): Promise<BlogForm['image']> {
  if (typeof post.feature_image !== 'string' || post.feature_image === '') return undefined;
  const image = await deps.writing.storedImage(post.feature_image);
  if (!image) throw invalid('Validation error, cannot save post: "feature_image" must be an image uploaded to this site (images/upload).');
  return image;
}

async function authorOf(deps: AdminApiDeps, post: PostInput): Promise<string> {
  const authors = names(post.authors, 'email');
  if (!authors?.length) {
    const owner = await deps.writing.defaultAuthor();
    if (!owner) throw invalid('Validation error, cannot save post: name its author ("authors": [{ "email": … }]); the site has no owner yet.');
    return owner.id;
  }
  const found = await deps.writing.findAuthor(authors[0]!.includes('@') ? { email: authors[0] } : { id: authors[0] });
  if (!found) throw invalid('Validation error, cannot save post: its author must be an account of this site that writes blogs.');
  return found.id;
}

export async function addPost(deps: AdminApiDeps, post: PostInput, source: string | undefined, log: FastifyBaseLogger) {
  const authorId = await authorOf(deps, post);
  const form: BlogForm = {
    fields: {
      title: typeof post.title === 'string' ? post.title : '',
      blog: markdownOf(post, source, deps.publicUrl) ?? '',
      tags: (names(post.tags, 'name') ?? []).join(', '),
      // A post sent without a status is a draft, as in Ghost.
      ...(post.status === undefined ? { status: 'draft' } : statusFields(post)),
    },
    image: await imageOf(deps, post),
  };
  const blog = await deps.writing.create(authorId, form, log);
  return readAdminPost(deps, { id: blog.id });
}

/** Ghost's rule against lost edits: the post's `updated_at` as the app last read it, or 409. */
function assertNotStale(current: Blog, post: PostInput): void {
  if (typeof post.updated_at !== 'string' || Number.isNaN(Date.parse(post.updated_at))) throw invalid('Validation error, cannot edit post: "updated_at" is required.');
  if (Date.parse(post.updated_at) !== Date.parse(current.updatedAt)) {
    throw new GhostError(409, 'UpdateCollisionError', 'Saving failed! Someone else is editing this post.');
  }
}

export async function editPost(deps: AdminApiDeps, id: string, post: PostInput, source: string | undefined, log: FastifyBaseLogger) {
  const current = await readCurrent(deps, id, log);
  assertNotStale(current, post);
  if (post.authors !== undefined) {
    const authorId = await authorOf(deps, post);
    if (authorId !== current.userId) throw invalid('Validation error, cannot edit post: its author cannot be changed here.');
  }
  const form: BlogForm = {
    fields: {
      title: typeof post.title === 'string' ? post.title : current.title,
      blog: markdownOf(post, source, deps.publicUrl) ?? current.blog,
      tags: (names(post.tags, 'name') ?? current.tags).join(', '),
      ...statusFields(post),
    },
    image: await imageOf(deps, post),
  };
  if (post.feature_image === null && current.imageUrl) await deps.writing.removeImage(id, log);
  await deps.writing.update(id, form, log);
  return readAdminPost(deps, { id });
}

export async function deletePost(deps: AdminApiDeps, id: string, log: FastifyBaseLogger): Promise<void> {
  await readCurrent(deps, id, log);
  await deps.writing.remove(id, log);
}

async function readCurrent(deps: AdminApiDeps, id: string, log: FastifyBaseLogger): Promise<Blog> {
  try {
    return await deps.writing.read(id, log);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) throw new GhostError(404, 'NotFoundError', 'Post not found.');
    throw error;
  }
}
