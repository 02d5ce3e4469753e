import type { Kysely } from 'kysely';
import { absoluteUrl, paths } from '../../shared/paths.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { notFound } from '../errors.js';
import { authorWithNewestBlogs, blogsById, newestBlogs, sitemapParts } from './feeds.repository.js';
import { rssXml, type RssItem } from './rss-xml.js';
import { type SitemapEntry, sitemapIndexXml, urlsetXml } from './sitemap-xml.js';

export interface FeedDeps {
  config: Config;
  db: Kysely<Database>;
}

export const RSS_ITEM_COUNT = 20;

/** The pages anyone may read that are not blogs. */
const STATIC_PAGES = [paths.home(), paths.about(), paths.support()];

/** Path prefixes for signed-in screens and the API: nothing there for a search engine. */
const PRIVATE_PREFIXES = ['/api/', paths.create(), '/edit', paths.drafts(), paths.settings(), paths.ai(), paths.auth(), paths.moderation()];

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
 * The blog's RSS description. Bodies are plain text today; when they become Markdown, this is
 * the one function to change (to an excerpt or rendered HTML).
 */
export function blogDescription(blog: { body: string }): string {
  return blog.body;
}

const staticPageEntries = (config: Config): SitemapEntry[] =>
  STATIC_PAGES.map((path) => ({ loc: absoluteUrl(config.publicUrl, path) }));

const blogEntry = (config: Config, blog: { id: string; updated_at: Date }): SitemapEntry => ({
  loc: absoluteUrl(config.publicUrl, paths.viewBlog(blog.id)),
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
  const room = config.sitemapPartSize - STATIC_PAGES.length;
  const blogs = await blogsById(db, { limit: room + 1 }).execute();
  if (blogs.length <= room) {
    return urlsetXml([...staticPageEntries(config), ...blogs.map((blog) => blogEntry(config, blog))]);
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

export function sitemapPages(config: Config): string {
  return urlsetXml(staticPageEntries(config));
}

/** One part of the index: up to a part's worth of blogs in id order from `fromId` (or the first). */
export async function sitemapBlogsPart(deps: FeedDeps, fromId?: string): Promise<string> {
  const blogs = await blogsById(deps.db, { fromId, limit: deps.config.sitemapPartSize }).execute();
  if (blogs.length === 0) throw notFound('There is no such sitemap part.');
  return urlsetXml(blogs.map((blog) => blogEntry(deps.config, blog)));
}

interface FeedBlog {
  id: string;
  title: string;
  body: string;
  created_at: Date;
  author: string;
}

const rssItem = (config: Config, blog: FeedBlog): RssItem => ({
  title: blog.title,
  link: absoluteUrl(config.publicUrl, paths.viewBlog(blog.id)),
  description: blogDescription(blog),
  authorEmail: blog.author,
  published: new Date(blog.created_at),
});

/** The RSS feed of the site's newest blogs, or of one author's; an unknown author is a 404. */
export async function rssFeed(deps: FeedDeps, authorId?: string): Promise<string> {
  const { config, db } = deps;
  const home = absoluteUrl(config.publicUrl, paths.home());
  if (authorId === undefined) {
    const blogs = await newestBlogs(db, RSS_ITEM_COUNT).execute();
    return rssXml({
      title: config.siteName,
      link: home,
      description: `The newest blogs on ${config.siteName}`,
      selfUrl: absoluteUrl(config.publicUrl, paths.rss()),
      items: blogs.map((blog) => rssItem(config, blog)),
    });
  }

  const rows = await authorWithNewestBlogs(db, authorId, RSS_ITEM_COUNT).execute();
  const author = rows[0]?.author;
  if (author === undefined) throw notFound('There is no such author.');
  const blogs = rows.flatMap(({ id, title, body, created_at }) =>
    id !== null && title !== null && body !== null && created_at !== null ? [{ id, title, body, created_at, author }] : [],
  );
  return rssXml({
    title: `${author} · ${config.siteName}`,
    link: home,
    description: `The newest blogs by ${author} on ${config.siteName}`,
    selfUrl: absoluteUrl(config.publicUrl, paths.rss(authorId)),
    items: blogs.map((blog) => rssItem(config, blog)),
  });
}
