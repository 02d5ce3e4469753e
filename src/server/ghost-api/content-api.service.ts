import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { paths } from '../../shared/paths.js';
import type { SiteSettings } from '../../shared/site-settings-schema.js';
import { blogVisibleTo } from '../core/blog-visibility.js';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { FilterError, postsFilter } from './content-filter.js';

/**
 * Ghost's Content API (issue 60, docs/apis.md): the site's public blogs, its own pages, tags,
 * authors and settings in Ghost 5/6's shapes. Only what the site's one visibility rule makes
 * public; an author is named by display name or handle, never by e-mail.
 */
export interface ContentApiDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  publicUrl: string;
  settings: () => Promise<SiteSettings>;
}

/** An answer in Ghost's error shape. */
export class GhostError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export const ghostNotFound = (resource: string) => new GhostError(404, 'NotFoundError', `Resource not found error, cannot read ${resource}.`);

export interface BrowseOptions {
  limit?: string;
  page?: string;
  filter?: string;
  order?: string;
  fields?: string;
  include?: string;
}

interface Pagination {
  page: number;
  limit: number | 'all';
  pages: number;
  total: number;
  next: number | null;
  prev: number | null;
}

/** `limit=all` stops at this many, as a bound on one answer. */
const ALL_LIMIT = 1000;

function paging(options: BrowseOptions): { page: number; limit: number | 'all'; take: number } {
  const page = options.page === undefined ? 1 : Number(options.page);
  if (!Number.isInteger(page) || page < 1) throw new GhostError(400, 'BadRequestError', 'Validation error, cannot browse: "page" must be a positive whole number.');
  if (options.limit === 'all') return { page, limit: 'all', take: ALL_LIMIT };
  const limit = options.limit === undefined ? 15 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new GhostError(400, 'BadRequestError', 'Validation error, cannot browse: "limit" must be a positive whole number or "all".');
  return { page, limit, take: Math.min(limit, ALL_LIMIT) };
}

function pagination(page: number, limit: number | 'all', take: number, total: number): Pagination {
  const pages = Math.max(1, Math.ceil(total / take));
  return { page, limit, pages, total, next: page < pages ? page + 1 : null, prev: page > 1 ? page - 1 : null };
}

const listOf = (text: string | undefined) => (text ? text.split(',').map((part) => part.trim()).filter(Boolean) : []);

/** Only the fields asked for (`fields`), as Ghost answers them. */
function pick<T extends Record<string, unknown>>(item: T, fields: string[]): Partial<T> {
  if (fields.length === 0) return item;
  return Object.fromEntries(Object.entries(item).filter(([name]) => fields.includes(name))) as Partial<T>;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function absolute(deps: ContentApiDeps, url: string | null): string | null {
  return url === null ? null : new URL(url, `${deps.publicUrl}/`).toString();
}

const ORDER_COLUMNS = { published_at: 'blogs.created_at', created_at: 'blogs.created_at', updated_at: 'blogs.updated_at', title: 'blogs.title', slug: 'blogs.slug' } as const;

/** `order`: `published_at desc` (the default), `title asc`, ... one or more, comma-separated. */
function orderOf(order: string | undefined): { column: (typeof ORDER_COLUMNS)[keyof typeof ORDER_COLUMNS]; direction: 'asc' | 'desc' }[] {
  if (!order) return [{ column: 'blogs.created_at', direction: 'desc' }];
  return listOf(order).map((part) => {
    const [name = '', direction = 'asc'] = part.split(/\s+/);
    const column = ORDER_COLUMNS[name as keyof typeof ORDER_COLUMNS];
    if (!column || !['asc', 'desc'].includes(direction.toLowerCase())) throw new GhostError(400, 'BadRequestError', `Validation error, cannot browse: the order "${part}" is not one this site knows.`);
    return { column, direction: direction.toLowerCase() as 'asc' | 'desc' };
  });
}

/**
 * Which posts an API shows and how: the Content API's public ones, or the Admin API's every one,
 * with its status (`admin-api.service.ts`).
 */
export type PostsView = 'content' | 'admin';

function postsQuery(deps: ContentApiDeps, view: PostsView = 'content') {
  const blogs = deps.db.selectFrom('blogs').innerJoin('user', 'user.id', 'blogs.user_id');
  return (view === 'content' ? blogs.where(blogVisibleTo(null)) : blogs).select([
    'blogs.status',
    'blogs.publish_at',
    'blogs.id',
    'blogs.slug',
    'blogs.title',
    'blogs.html',
    'blogs.excerpt',
    'blogs.reading_minutes',
    'blogs.image_key',
    'blogs.created_at',
    'blogs.updated_at',
    'blogs.tags',
    'user.id as author_id',
    'user.handle as author_handle',
    'user.display_name as author_display_name',
    'user.bio as author_bio',
    'user.image as author_image',
  ]);
}
export type PostRow = Awaited<ReturnType<ReturnType<typeof postsQuery>['executeTakeFirstOrThrow']>>;

interface AuthorColumns {
  id: string;
  handle: string;
  display_name: string | null;
  bio: string | null;
  image: string | null;
}

function toAuthor(deps: ContentApiDeps, author: AuthorColumns) {
  return {
    id: author.id,
    name: author.display_name?.trim() || author.handle,
    slug: author.handle,
    profile_image: absolute(deps, author.image),
    cover_image: null,
    bio: author.bio,
    website: null,
    location: null,
    facebook: null,
    twitter: null,
    meta_title: null,
    meta_description: null,
    url: `${deps.publicUrl}${paths.author(author.id)}`,
  };
}

/** The SEO fields Ghost answers for a post, a tag or the settings: this site sets none of them, so each is null. */
const GHOST_NO_SEO = {
  og_image: null,
  og_title: null,
  og_description: null,
  twitter_image: null,
  twitter_title: null,
  twitter_description: null,
  meta_title: null,
  meta_description: null,
} as const;

function toTag(deps: ContentApiDeps, tag: string, count?: number) {
  return {
    id: tag,
    name: tag,
    slug: tag,
    description: null,
    feature_image: null,
    visibility: 'public',
    ...GHOST_NO_SEO,
    codeinjection_head: null,
    codeinjection_foot: null,
    canonical_url: null,
    accent_color: null,
    url: `${deps.publicUrl}${paths.tag(tag)}`,
    ...(count === undefined ? {} : { count: { posts: count } }),
  };
}

export function toPost(deps: ContentApiDeps, row: PostRow, include: string[]) {
  const author = toAuthor(deps, { id: row.author_id, handle: row.author_handle, display_name: row.author_display_name, bio: row.author_bio, image: row.author_image });
  const tags = row.tags.map((tag) => toTag(deps, tag));
  return {
    id: row.id,
    uuid: row.id,
    title: row.title,
    slug: row.slug,
    html: row.html ?? '',
    comment_id: row.id,
    feature_image: row.image_key ? absolute(deps, deps.storage.publicUrl(row.image_key)) : null,
    feature_image_alt: null,
    feature_image_caption: null,
    featured: false,
    visibility: 'public',
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    published_at: iso(row.created_at),
    custom_excerpt: null,
    codeinjection_head: null,
    codeinjection_foot: null,
    custom_template: null,
    canonical_url: null,
    url: `${deps.publicUrl}${paths.blog(row.slug)}`,
    excerpt: row.excerpt ?? '',
    reading_time: row.reading_minutes ?? 1,
    access: true,
    comments: false,
    ...GHOST_NO_SEO,
    email_subject: null,
    frontmatter: null,
    ...(include.includes('tags') ? { tags, primary_tag: tags[0] ?? null } : {}),
    ...(include.includes('authors') ? { authors: [author], primary_author: author } : {}),
  };
}

/** A post as `view` answers it: the Admin API's adds its status (`admin-api.service.ts`). */
type PostShape = (deps: ContentApiDeps, row: PostRow, include: string[]) => Record<string, unknown>;

export async function browsePosts(deps: ContentApiDeps, options: BrowseOptions, view: PostsView = 'content', shape: PostShape = toPost) {
  const { page, limit, take } = paging(options);
  const order = orderOf(options.order);
  let query = postsQuery(deps, view);
  const joined = deps.db.selectFrom('blogs').innerJoin('user', 'user.id', 'blogs.user_id');
  let counted = view === 'content' ? joined.where(blogVisibleTo(null)) : joined;
  if (options.filter) {
    const filter = options.filter;
    const withStatus = view === 'admin';
    try {
      query = query.where((eb) => postsFilter(eb, filter, { withStatus }));
      counted = counted.where((eb) => postsFilter(eb, filter, { withStatus }));
    } catch (error) {
      if (error instanceof FilterError) throw new GhostError(400, 'BadRequestError', error.message);
      throw error;
    }
  }
  for (const { column, direction } of order) query = query.orderBy(column, direction);
  query = query.orderBy('blogs.id', 'desc');
  const [rows, total] = await Promise.all([
    query.limit(take).offset((page - 1) * take).execute(),
    counted.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const include = listOf(options.include);
  const fields = listOf(options.fields);
  return { posts: rows.map((row) => pick(shape(deps, row, include), fields)), meta: { pagination: pagination(page, limit, take, Number(total.n)) } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function readPost(deps: ContentApiDeps, by: { id?: string; slug?: string }, options: BrowseOptions, view: PostsView = 'content', shape: PostShape = toPost) {
  if (by.id !== undefined && !UUID.test(by.id)) throw ghostNotFound('post');
  const query = postsQuery(deps, view);
  const row = await (by.id !== undefined ? query.where('blogs.id', '=', by.id) : query.where('blogs.slug', '=', by.slug ?? '')).executeTakeFirst();
  if (!row) throw ghostNotFound('post');
  return { posts: [pick(shape(deps, row, listOf(options.include)), listOf(options.fields))] };
}

function toPage(deps: ContentApiDeps, row: { slug: string; title: string; html: string; created_at: Date; updated_at: Date }) {
  const text = row.html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return {
    id: row.slug,
    uuid: row.slug,
    title: row.title,
    slug: row.slug,
    html: row.html,
    feature_image: null,
    featured: false,
    visibility: 'public',
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    published_at: iso(row.created_at),
    custom_excerpt: null,
    url: `${deps.publicUrl}${paths.sitePage(row.slug)}`,
    excerpt: text.length > 300 ? `${text.slice(0, 299)}…` : text,
    reading_time: Math.max(1, Math.round(text.split(' ').length / 265)),
    access: true,
    meta_title: null,
    meta_description: null,
  };
}

export async function browsePages(deps: ContentApiDeps, options: BrowseOptions) {
  const { page, limit, take } = paging(options);
  const [rows, total] = await Promise.all([
    deps.db.selectFrom('site_pages').select(['slug', 'title', 'html', 'created_at', 'updated_at']).orderBy('created_at').orderBy('slug').limit(take).offset((page - 1) * take).execute(),
    deps.db.selectFrom('site_pages').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const fields = listOf(options.fields);
  return { pages: rows.map((row) => pick(toPage(deps, row), fields)), meta: { pagination: pagination(page, limit, take, Number(total.n)) } };
}

export async function readPage(deps: ContentApiDeps, slug: string, options: BrowseOptions) {
  const row = await deps.db.selectFrom('site_pages').select(['slug', 'title', 'html', 'created_at', 'updated_at']).where('slug', '=', slug).executeTakeFirst();
  if (!row) throw ghostNotFound('page');
  return { pages: [pick(toPage(deps, row), listOf(options.fields))] };
}

export async function browseTags(deps: ContentApiDeps, options: BrowseOptions) {
  const { page, limit, take } = paging(options);
  const withCount = listOf(options.include).includes('count.posts');
  const [rows, total] = await Promise.all([
    deps.db.selectFrom('tag_counts').select(['tag', 'blogs']).orderBy('tag').limit(take).offset((page - 1) * take).execute(),
    deps.db.selectFrom('tag_counts').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const fields = listOf(options.fields);
  return { tags: rows.map((row) => pick(toTag(deps, row.tag, withCount ? row.blogs : undefined), fields)), meta: { pagination: pagination(page, limit, take, Number(total.n)) } };
}

export async function readTag(deps: ContentApiDeps, slug: string, options: BrowseOptions) {
  const row = await deps.db.selectFrom('tag_counts').select(['tag', 'blogs']).where('tag', '=', slug).executeTakeFirst();
  if (!row) throw ghostNotFound('tag');
  return { tags: [pick(toTag(deps, row.tag, listOf(options.include).includes('count.posts') ? row.blogs : undefined), listOf(options.fields))] };
}

/** Authors: the accounts with a public blog, by handle, each with how many (`include=count.posts`). */
function authorsQuery(deps: ContentApiDeps) {
  return deps.db
    .selectFrom('user')
    .innerJoin(deps.db.selectFrom('blogs').where(blogVisibleTo(null)).select(['blogs.user_id', sql<string>`count(*)`.as('posts')]).groupBy('blogs.user_id').as('public_blogs'), 'public_blogs.user_id', 'user.id')
    .select(['user.id', 'user.handle', 'user.display_name', 'user.bio', 'user.image', 'public_blogs.posts']);
}

export async function browseAuthors(deps: ContentApiDeps, options: BrowseOptions) {
  const { page, limit, take } = paging(options);
  const withCount = listOf(options.include).includes('count.posts');
  const [rows, total] = await Promise.all([
    authorsQuery(deps).orderBy('user.handle').limit(take).offset((page - 1) * take).execute(),
    deps.db.selectFrom('blogs').where(blogVisibleTo(null)).select(sql<string>`count(distinct blogs.user_id)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const fields = listOf(options.fields);
  return {
    authors: rows.map((row) => pick({ ...toAuthor(deps, row), ...(withCount ? { count: { posts: Number(row.posts) } } : {}) }, fields)),
    meta: { pagination: pagination(page, limit, take, Number(total.n)) },
  };
}

export async function readAuthor(deps: ContentApiDeps, by: { id?: string; slug?: string }, options: BrowseOptions) {
  const query = authorsQuery(deps);
  const row = await (by.id !== undefined ? query.where('user.id', '=', by.id) : query.where('user.handle', '=', by.slug ?? '')).executeTakeFirst();
  if (!row) throw ghostNotFound('author');
  const withCount = listOf(options.include).includes('count.posts');
  return { authors: [pick({ ...toAuthor(deps, row), ...(withCount ? { count: { posts: Number(row.posts) } } : {}) }, listOf(options.fields))] };
}

export async function readSettings(deps: ContentApiDeps) {
  const settings = await deps.settings();
  return {
    settings: {
      title: settings.siteName,
      description: settings.description,
      logo: settings.logoImageId ? absolute(deps, deps.storage.publicUrl(settings.logoImageId)) : null,
      icon: settings.iconImageId ? absolute(deps, deps.storage.publicUrl(settings.iconImageId)) : null,
      accent_color: settings.accentColour,
      cover_image: null,
      facebook: null,
      twitter: null,
      lang: 'en',
      locale: 'en',
      timezone: 'Etc/UTC',
      codeinjection_head: null,
      codeinjection_foot: null,
      navigation: settings.navigation.map((link) => ({ label: link.label, url: link.url })),
      secondary_navigation: [],
      ...GHOST_NO_SEO,
      members_support_address: null,
      url: `${deps.publicUrl}/`,
    },
    meta: {},
  };
}
