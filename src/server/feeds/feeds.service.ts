import type { Kysely } from 'kysely';
import { absoluteUrl, paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { notFound } from '../errors.js';
import { renderBlogBody } from '../core/blog-body.js';
import { outgoingText } from '../markdown/outgoing-text.js';
import type { ImageStorage } from '../storage/storage.js';
import { atomXml } from './atom-xml.js';
import type { Feed, FeedEntry, FeedLinks } from './feed-model.js';
import { authorWithNewestBlogs, blogsById, feedsChangedAt, newestBlogs, sitemapParts, sitePageSlugs, tagNames } from './feeds.repository.js';
import { jsonFeed } from './json-feed.js';
import { rssXml } from './rss-xml.js';
import { type SitemapEntry, sitemapIndexXml, urlsetXml } from './sitemap-xml.js';
import type { SiteSettingsSource } from '../core/site-settings.js';
import { publicAuthorName } from '../../shared/author-name.js';

export interface FeedDeps {
  config: Config;
  db: Kysely<Database>;
  /** Where stored images live: what the blogs' HTML may show, made absolute on the way out. */
  storage: Pick<ImageStorage, 'publicBaseUrl'>;
  /** The site's name in the feeds' titles and how they name authors, as its settings have it now. */
  siteSettings: SiteSettingsSource;
}

/** How many blogs each feed carries, newest first. */
export const FEED_ITEM_COUNT = 20;

/** The pages anyone may read that are not blogs nor tags. */
const STATIC_PAGES = [paths.home(), paths.about(), paths.support(), paths.tags()];

/** Path prefixes for signed-in screens and the API: nothing there for a search engine. */
const PRIVATE_PREFIXES = ['/api/', paths.create(), '/edit', paths.drafts(), paths.settings(), paths.ai(), paths.auth(), paths.moderation(), paths.admin(), paths.import(), paths.following()];

export function robotsTxt(config: Config): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${absoluteUrl(config.publicUrl, paths.sitemap())}`,
    '',
  ].join('\n');
}

/**
 * The pages that are not blogs: the static ones, the owner's pages (issue 58), and a page for each
 * tag some public blog carries (as many as fit beside them in one part; a site with more tags than
 * that lists the first in name order).
 */
async function pageEntries(deps: FeedDeps): Promise<SitemapEntry[]> {
  const { config, db } = deps;
  const ownPages = await sitePageSlugs(db, config.sitemapPartSize - STATIC_PAGES.length).execute();
  const tags = await tagNames(db, Math.max(0, config.sitemapPartSize - STATIC_PAGES.length - ownPages.length)).execute();
  return [
    ...STATIC_PAGES.map((path) => ({ loc: absoluteUrl(config.publicUrl, path) })),
    ...ownPages.map((page) => ({ loc: absoluteUrl(config.publicUrl, paths.sitePage(page.slug)), lastmod: new Date(page.updated_at) })),
    ...tags.map(({ tag }) => ({ loc: absoluteUrl(config.publicUrl, paths.tag(tag)) })),
  ];
}

const blogEntry = (config: Config, blog: { slug: string; updated_at: Date }): SitemapEntry => ({
  loc: absoluteUrl(config.publicUrl, paths.blog(blog.slug)),
  lastmod: new Date(blog.updated_at),
});

/**
 * `/sitemap.xml`: every URL in one file while they fit in one part (`SITEMAP_PART_SIZE`), else an
 * index of the static pages' file and the blog parts, each part starting at a blog id. The
 * first query reads at most one part, so a site that fits needs no second; past that, the index
 * costs that read plus one pass over the covering index.
 */
export async function sitemap(deps: FeedDeps): Promise<string> {
  const { config, db } = deps;
  const pages = await pageEntries(deps);
  const room = config.sitemapPartSize - pages.length;
  const blogs = await blogsById(db, { limit: room + 1 }).execute();
  if (blogs.length <= room) {
    return urlsetXml([...pages, ...blogs.map((blog) => blogEntry(config, blog))]);
  }
  const { rows: parts } = await sitemapParts(config.sitemapPartSize).execute(db);
  return sitemapIndexXml([
    { loc: absoluteUrl(config.publicUrl, paths.sitemapPages()) },
    ...parts.map((part) => ({
      loc: absoluteUrl(config.publicUrl, paths.sitemapBlogs(part.first_id)),
      lastmod: new Date(part.last_modified),
    })),
  ]);
}

export async function sitemapPages(deps: FeedDeps): Promise<string> {
  return urlsetXml(await pageEntries(deps));
}

/** One part of the index: up to a part's worth of blogs in id order from `fromId` (or the first). */
export async function sitemapBlogsPart(deps: FeedDeps, fromId?: string): Promise<string> {
  const blogs = await blogsById(deps.db, { fromId, limit: deps.config.sitemapPartSize }).execute();
  if (blogs.length === 0) throw notFound('There is no such sitemap part.');
  return urlsetXml(blogs.map((blog) => blogEntry(deps.config, blog)));
}

/** How long past the end of its second a change is left undated (see `feedsChanged`). */
export const LAST_MODIFIED_SETTLE_MS = 1_000;

export interface FeedsChanged {
  /** When the feeds and sitemaps last changed, to the microsecond. */
  changedAt: Date;
  /**
   * Their `Last-Modified`: `changedAt` in whole seconds, once that second is over by
   * `LAST_MODIFIED_SETTLE_MS`; undefined before. An HTTP date has one-second resolution: a reader
   * given second S while another change of second S was still to commit would send that
   * `If-Modified-Since: S` back and get a wrong 304. The triggers date a change as it commits, so
   * once second S is over (and a margin for a commit in flight), every change still to come is
   * dated after S. Until then the answer carries only its `ETag`, which is never wrong.
   */
  lastModified?: Date;
  /** Without `lastModified`: in how many milliseconds it will be given. */
  undatedForMs?: number;
}

/** Read before what the answer lists, so the content is never older than its date. */
export async function feedsChanged(db: Kysely<Database>): Promise<FeedsChanged> {
  const row = await feedsChangedAt(db).executeTakeFirstOrThrow();
  const changedAt = new Date(row.changed_at);
  const second = Math.floor(changedAt.getTime() / 1000) * 1000;
  const undatedForMs = second + 1000 + LAST_MODIFIED_SETTLE_MS - new Date(row.now).getTime();
  return undatedForMs <= 0 ? { changedAt, lastModified: new Date(second) } : { changedAt, undatedForMs };
}

export type FeedFormat = 'rss' | 'atom' | 'json';

/** Who wrote a feed's blog, as the queries read them. */
interface AuthorRow {
  author_email: string;
  author_display_name: string | null;
  author_handle: string;
}

interface FeedBlog {
  id: string;
  slug: string;
  title: string;
  body: string;
  html: string | null;
  excerpt: string | null;
  created_at: Date;
  updated_at: Date;
  tags: string[];
}

function feedEntry(deps: FeedDeps, blog: FeedBlog, author: FeedEntry['author']): FeedEntry {
  const url = absoluteUrl(deps.config.publicUrl, paths.blog(blog.slug));
  // Rendered on write; a row the start-up backfill has not reached yet is rendered here instead.
  const rendered = blog.html !== null && blog.excerpt !== null ? { html: blog.html, excerpt: blog.excerpt } : renderBlogBody(blog.body, deps.storage);
  const out = outgoingText(rendered, { pageUrl: url, imagePrefixes: [deps.storage.publicBaseUrl] });
  return {
    url,
    id: absoluteUrl(deps.config.publicUrl, paths.viewBlog(blog.id)),
    title: blog.title,
    summaryText: out.text,
    summaryHtml: out.textAsHtml,
    contentHtml: out.html,
    author,
    tags: blog.tags,
    published: new Date(blog.created_at),
    updated: new Date(blog.updated_at),
  };
}

const WRITERS: Record<FeedFormat, (feed: Feed) => string> = { rss: rssXml, atom: atomXml, json: jsonFeed };

function feedLinks(config: Config, home: string, of: FeedOf = {}): FeedLinks {
  return {
    home: absoluteUrl(config.publicUrl, home),
    rss: absoluteUrl(config.publicUrl, paths.rss(of.author, of.tag)),
    atom: absoluteUrl(config.publicUrl, paths.atom(of.author, of.tag)),
    json: absoluteUrl(config.publicUrl, paths.jsonFeed(of.author, of.tag)),
  };
}

/** Whose newest blogs a feed carries: the site's, one author's (a user id) or one tag's. */
export interface FeedOf {
  author?: string;
  tag?: string;
}

/**
 * The feed of the site's newest blogs, of one author's or of one tag's, in `format`; an unknown
 * author is a 404, a tag no public blog carries an empty feed (it may come back). The three
 * formats carry the same entries (`Feed`).
 */
export async function feed(deps: FeedDeps, format: FeedFormat, changed: FeedsChanged, of: FeedOf = {}): Promise<string> {
  const { author: authorId, tag } = of;
  const { config, db } = deps;
  const { siteName, showAuthorsBy } = await deps.siteSettings.get();
  // The author as the site names them; their address only while it shows authors by e-mail.
  const authorOf = (row: AuthorRow): FeedEntry['author'] => {
    const name = publicAuthorName(showAuthorsBy, { email: row.author_email, displayName: row.author_display_name, handle: row.author_handle });
    return showAuthorsBy === 'email' ? { name, email: row.author_email } : { name };
  };
  const model = (title: string, description: string, links: FeedLinks, blogs: (FeedBlog & AuthorRow)[]): Feed => {
    const entries = blogs.map((blog) => feedEntry(deps, blog, authorOf(blog)));
    const newest = Math.max(...entries.map((entry) => entry.updated.getTime()));
    return { title, description, links, entries, updated: entries.length > 0 ? new Date(newest) : changed.changedAt };
  };
  if (tag !== undefined) {
    const blogs = await newestBlogs(db, FEED_ITEM_COUNT, tag).execute();
    const links = feedLinks(config, paths.tag(tag), { tag });
    return WRITERS[format](model(`Blogs tagged ${tag} · ${siteName}`, `The newest blogs tagged ${tag} on ${siteName}`, links, blogs));
  }
  if (authorId === undefined) {
    const blogs = await newestBlogs(db, FEED_ITEM_COUNT).execute();
    const links = feedLinks(config, paths.home());
    return WRITERS[format](model(siteName, `The newest blogs on ${siteName}`, links, blogs));
  }

  const rows = await authorWithNewestBlogs(db, authorId, FEED_ITEM_COUNT).execute();
  const first = rows[0];
  if (first === undefined) throw notFound('There is no such author.');
  const { author_email, author_display_name, author_handle } = first;
  const author = authorOf(first).name;
  const blogs = rows.flatMap(({ id, slug, title, body, html, excerpt, created_at, updated_at, tags }) =>
    id !== null && slug !== null && title !== null && body !== null && created_at !== null && updated_at !== null && tags !== null
      ? [{ id, slug, title, body, html, excerpt, created_at, updated_at, tags, author_email, author_display_name, author_handle }]
      : [],
  );
  const links = feedLinks(config, paths.author(authorId), { author: authorId });
  return WRITERS[format](model(`${author} · ${siteName}`, `The newest blogs by ${author} on ${siteName}`, links, blogs));
}
