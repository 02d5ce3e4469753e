import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Expression, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { TEST_PUBLIC_URL, type TestApp, useTestApp } from '../testing/test-app.js';
import { type TestUser, useSignedUpUsers } from '../testing/test-users.js';
import { authorWithNewestBlogs, blogsById, newestBlogs, sitemapParts } from './feeds.repository.js';
import { childNamed, childrenNamed, parseXml, textOf, type XmlNode } from '../testing/parse-xml.js';
import { explain, vacuumBlogsUntilVisible } from '../testing/query-plans.js';
import { htmlElements, htmlText } from '../testing/html-text.js';

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const RFC_822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const HOSTILE_TITLE = `Tom & Jerry's <b>"best"</b> ]]> day ]]> — 日本語のブログ — مدونة عربية — 🎉👩‍💻`;
const HOSTILE_BODY =
  `First line & <script>alert('x')</script>\r\nSecond line with ]]> and <![CDATA[ and &amp; written out.\n` +
  `\tTabbed — こんにちは世界 — مرحبا بالعالم — 🚀 "quoted" 'single'`;

interface SeededBlog {
  id: string;
  slug: string;
  title: string;
  body: string;
  created_at: Date;
  updated_at: Date;
  author: string;
}

/** A blog's link in feeds and the sitemap: its readable address (issue 58). */
const blogUrl = (blog: { slug: string }) => `${TEST_PUBLIC_URL}/blog/${blog.slug}`;
/** A feed item's permanent id: the `/viewBlog?id=` URL, as before readable addresses, so no item comes back as new. */
const guidUrl = (id: string) => `${TEST_PUBLIC_URL}/viewBlog?id=${id}`;
/** The path and query of an absolute URL on the test site, for `app.inject`. */
const localPath = (url: string) => {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(TEST_PUBLIC_URL);
  return parsed.pathname + parsed.search;
};

async function insertBlogs(t: TestApp, author: TestUser, blogs: { title: string; body: string; created_at: Date; updated_at: Date }[]) {
  const rows = await t.database.db
    .insertInto('blogs')
    .values(blogs.map((blog) => ({ ...blog, user_id: author.id })))
    .returning(['id', 'slug', 'title', 'body', 'created_at', 'updated_at'])
    .execute();
  return rows.map((row): SeededBlog => ({
    ...row,
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
    author: author.email,
  }));
}

const hoursAfter = (start: string, hours: number) => new Date(Date.parse(start) + hours * 3_600_000);

async function getXml(app: App, url: string, contentType: string) {
  const response = await app.inject({ method: 'GET', url });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  expect(response.headers['content-type']).toBe(contentType);
  return parseXml(response.body);
}

const getSitemap = (app: App, url: string) => getXml(app, url, 'application/xml; charset=utf-8');
const getRss = (app: App, url: string) => getXml(app, url, 'application/rss+xml; charset=utf-8');

function sitemapUrls(urlset: XmlNode) {
  expect(urlset.name).toBe('urlset');
  expect(urlset.attributes.xmlns).toBe(SITEMAP_NS);
  return childrenNamed(urlset, 'url').map((url) => ({
    loc: textOf(url, 'loc'),
    lastmod: childrenNamed(url, 'lastmod')[0]?.text,
  }));
}

function rssChannel(rss: XmlNode) {
  expect(rss.name).toBe('rss');
  expect(rss.attributes.version).toBe('2.0');
  return childNamed(rss, 'channel');
}

function rssItems(channel: XmlNode) {
  return childrenNamed(channel, 'item').map((item) => ({
    title: textOf(item, 'title'),
    link: textOf(item, 'link'),
    guid: textOf(item, 'guid'),
    guidIsPermaLink: childNamed(item, 'guid').attributes.isPermaLink,
    pubDate: textOf(item, 'pubDate'),
    description: descriptionText(textOf(item, 'description')),
    author: textOf(item, 'author'),
  }));
}

/** What a reader shows of a `description` (HTML): its text, after checking it creates no element. */
function descriptionText(html: string): string {
  expect(htmlElements(html), html).toEqual([]);
  return htmlText(html);
}

/** The excerpt the blog's page and the API show. */
async function shownExcerpt(app: App, id: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: `/api/blogs/${id}` });
  expect(response.statusCode).toBe(200);
  return response.json<{ excerpt: string }>().excerpt;
}

const newestFirst = (blogs: SeededBlog[]) =>
  [...blogs].sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1));

describe('feeds and crawl files', () => {
  const SITE_NAME = `Jo's <Café> & Co — 日本`;
  const t = useTestApp({ SITE_NAME });
  const { author, hostileAuthor, quietAuthor } = useSignedUpUsers(t, ['author', 'hostileAuthor', 'quietAuthor'], { hostileAuthor: { email: `o'brien+feeds-${randomBytes(4).toString('hex')}@example.com` } });
  let blogs: SeededBlog[];

  beforeAll(async () => {
    const plain = await insertBlogs(
      t,
      author,
      Array.from({ length: 22 }, (_, i) => ({
        title: `Plain blog ${i}`,
        body: `Body of plain blog ${i}.`,
        created_at: hoursAfter('2026-01-01T00:00:00Z', i),
        updated_at: hoursAfter('2026-01-01T00:30:00Z', i * 2),
      })),
    );
    const hostile = await insertBlogs(t, hostileAuthor, [
      { title: HOSTILE_TITLE, body: HOSTILE_BODY, created_at: hoursAfter('2026-01-01T00:00:00Z', 5.5), updated_at: new Date('2026-03-01T12:00:00Z') },
      { title: '<<&&>>', body: ']]>]]>]]>', created_at: hoursAfter('2026-01-01T00:00:00Z', 30), updated_at: new Date('2026-03-02T12:00:00Z') },
    ]);
    blogs = [...plain, ...hostile];
  });

  describe('/robots.txt', () => {
    const rules = async () => {
      const response = await t.app.inject({ method: 'GET', url: '/robots.txt' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      const lines = response.body.split('\n').map((line) => line.trim());
      const values = (field: string) => lines.filter((line) => line.startsWith(`${field}: `)).map((line) => line.slice(field.length + 2));
      return { lines, values };
    };

    it('keeps crawlers out of the API and the signed-in screens, and names the sitemap', async () => {
      const { lines, values } = await rules();
      expect(lines[0]).toBe('User-agent: *');
      expect(values('Allow')).toEqual(['/']);
      expect(values('Disallow').sort()).toEqual(['/admin', '/ai', '/api/', '/auth', '/create', '/drafts', '/edit', '/following', '/import', '/moderation', '/settings']);
      expect(values('Sitemap')).toEqual([`${TEST_PUBLIC_URL}/sitemap.xml`]);
    });

    it('blocks no public page', async () => {
      const disallowed = (await rules()).values('Disallow');
      const blocked = (url: string) => disallowed.some((prefix) => url.startsWith(prefix));
      for (const url of ['/', '/about', '/support', `/viewBlog?id=${blogs[0]!.id}`, '/search?searchTerm=x', '/rss.xml', '/sitemap.xml']) {
        expect(blocked(url), url).toBe(false);
      }
      for (const url of ['/api/blogs', '/create', '/edit?id=1', '/settings', '/ai', '/auth?view=sign_in', '/moderation', '/import', '/following']) {
        expect(blocked(url), url).toBe(true);
      }
    });
  });

  describe('/sitemap.xml', () => {
    it('lists the static pages and every blog with its last change, in one file while they fit', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      const urls = sitemapUrls(await getSitemap(t.app, '/sitemap.xml'));
      const expected = [
        { loc: `${TEST_PUBLIC_URL}/`, lastmod: undefined },
        { loc: `${TEST_PUBLIC_URL}/about`, lastmod: undefined },
        { loc: `${TEST_PUBLIC_URL}/support`, lastmod: undefined },
        { loc: `${TEST_PUBLIC_URL}/tags`, lastmod: undefined },
        ...blogs.map((blog) => ({ loc: blogUrl(blog), lastmod: blog.updated_at.toISOString() })),
      ];
      const byLoc = (a: { loc: string }, b: { loc: string }) => a.loc.localeCompare(b.loc);
      expect([...urls].sort(byLoc)).toEqual(expected.sort(byLoc));
    });
  });

  describe('/rss.xml', () => {
    it('is RSS 2.0 named after the site, linking to the site', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/rss.xml' });
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      const channel = rssChannel(await getRss(t.app, '/rss.xml'));
      expect(textOf(channel, 'title')).toBe(SITE_NAME);
      expect(textOf(channel, 'link')).toBe(`${TEST_PUBLIC_URL}/`);
      expect(textOf(channel, 'description')).toContain(SITE_NAME);
      expect(childNamed(channel, 'atom:link').attributes).toMatchObject({ href: `${TEST_PUBLIC_URL}/rss.xml`, rel: 'self' });
    });

    it('carries the 20 newest blogs, newest first, each with link, guid, RFC 822 date, excerpt as text and author', async () => {
      const items = rssItems(rssChannel(await getRss(t.app, '/rss.xml')));
      const expected = newestFirst(blogs).slice(0, 20);
      expect(items).toHaveLength(20);
      expect(items.map((item) => item.link)).toEqual(expected.map((blog) => blogUrl(blog)));
      for (const [i, item] of items.entries()) {
        const blog = expected[i]!;
        expect(item).toEqual({
          title: blog.title,
          link: blogUrl(blog),
          guid: guidUrl(blog.id),
          guidIsPermaLink: 'true',
          pubDate: blog.created_at.toUTCString(),
          description: await shownExcerpt(t.app, blog.id),
          author: blog.author,
        });
        expect(item.pubDate).toMatch(RFC_822);
        expect(new Date(item.pubDate).getTime()).toBe(Math.floor(blog.created_at.getTime() / 1000) * 1000);
      }
    });

    it('round-trips titles, bodies and e-mails holding markup, quotes, ]]> and non-Latin text', async () => {
      const items = rssItems(rssChannel(await getRss(t.app, '/rss.xml')));
      const hostile = blogs.filter((blog) => blog.author === hostileAuthor.email);
      expect(hostile).toHaveLength(2);
      for (const blog of hostile) {
        const item = items.find((candidate) => candidate.link === blogUrl(blog));
        expect(item).toMatchObject({ title: blog.title, description: await shownExcerpt(t.app, blog.id), author: hostileAuthor.email });
      }
      // The excerpt is the Markdown's text: `&amp;` written in it is `&`, lines are joined, markup stays text.
      expect(items.find((item) => item.link === blogUrl(hostile[0]!))).toMatchObject({
        title: HOSTILE_TITLE,
        description:
          `First line & <script>alert('x')</script> Second line with ]]> and <![CDATA[ and & written out. ` +
          `Tabbed — こんにちは世界 — مرحبا بالعالم — 🚀 "quoted" 'single'`,
      });
    });

    describe('?author=', () => {
      it("is one author's newest 20, titled with their e-mail and the site's name", async () => {
        const channel = rssChannel(await getRss(t.app, `/rss.xml?author=${author.id}`));
        expect(textOf(channel, 'title')).toBe(`${author.email} · ${SITE_NAME}`);
        expect(textOf(channel, 'link')).toBe(`${TEST_PUBLIC_URL}/author?id=${author.id}`);
        expect(childNamed(channel, 'atom:link').attributes.href).toBe(`${TEST_PUBLIC_URL}/rss.xml?author=${author.id}`);
        const items = rssItems(channel);
        const expected = newestFirst(blogs.filter((blog) => blog.author === author.email)).slice(0, 20);
        expect(expected).toHaveLength(20);
        expect(items.map((item) => item.link)).toEqual(expected.map((blog) => blogUrl(blog)));
        expect(new Set(items.map((item) => item.author))).toEqual(new Set([author.email]));
      });

      it('escapes an e-mail with a quote in the title and author', async () => {
        const channel = rssChannel(await getRss(t.app, `/rss.xml?author=${hostileAuthor.id}`));
        expect(textOf(channel, 'title')).toBe(`${hostileAuthor.email} · ${SITE_NAME}`);
        const items = rssItems(channel);
        expect(items.map((item) => item.title)).toEqual(['<<&&>>', HOSTILE_TITLE]);
        expect(items.map((item) => item.description)).toEqual([']]>]]>]]>', await shownExcerpt(t.app, items[1]!.guid.slice(-36))]);
      });

      it('is an empty feed for an author without blogs', async () => {
        const channel = rssChannel(await getRss(t.app, `/rss.xml?author=${quietAuthor.id}`));
        expect(textOf(channel, 'title')).toBe(`${quietAuthor.email} · ${SITE_NAME}`);
        expect(rssItems(channel)).toEqual([]);
      });

      it.each([
        ['an unknown id', 'NoSuchUser0123456789abcdefABCDEF'],
        ['an empty id', ''],
        ['an id with a space', 'a%20b'],
        ['an id with markup', '%3Cscript%3E'],
        ['a repeated parameter', 'x&author=y'],
        ['an over-long id', 'a'.repeat(101)],
      ])('answers 404 for %s', async (_label, value) => {
        const response = await t.app.inject({ method: 'GET', url: `/rss.xml?author=${value}` });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
        expect(response.headers['cache-control']).not.toBe('public, max-age=300');
      });
    });
  });

  describe('beside the web app', () => {
    let app: App;
    let webRoot: string;
    beforeAll(async () => {
      webRoot = mkdtempSync(path.join(os.tmpdir(), 'blog-web-'));
      writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
      app = await buildApp({ config: t.config, database: t.database, logger: false, webRoot });
    });
    afterAll(async () => {
      await app.close();
      rmSync(webRoot, { recursive: true, force: true });
    });

    it.each([
      ['/robots.txt', 'text/plain; charset=utf-8'],
      ['/sitemap.xml', 'application/xml; charset=utf-8'],
      ['/sitemap-pages.xml', 'application/xml; charset=utf-8'],
      ['/sitemap-blogs.xml', 'application/xml; charset=utf-8'],
      ['/rss.xml', 'application/rss+xml; charset=utf-8'],
      ['/atom.xml', 'application/atom+xml; charset=utf-8'],
      ['/feed.json', 'application/feed+json; charset=utf-8'],
    ])('answers %s itself, not with the app', async (url, contentType) => {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(200);
        expect(response.headers['content-type']).toBe(contentType);
        expect(response.body).not.toContain('<div id="root">');
      }
    });
  });
});

describe('sitemap index', () => {
  const PART_SIZE = 10;
  const STATIC_URLS = [`${TEST_PUBLIC_URL}/`, `${TEST_PUBLIC_URL}/about`, `${TEST_PUBLIC_URL}/support`, `${TEST_PUBLIC_URL}/tags`];
  const t = useTestApp({ SITEMAP_PART_SIZE: String(PART_SIZE) });
  const { author } = useSignedUpUsers(t, ['author']);
  const blogs: SeededBlog[] = [];
  const addBlogs = async (count: number) => {
    const start = blogs.length;
    blogs.push(
      ...(await insertBlogs(
        t,
        author,
        Array.from({ length: count }, (_, i) => ({
          title: `Blog ${start + i}`,
          body: 'Text.',
          created_at: hoursAfter('2026-05-01T00:00:00Z', start + i),
          updated_at: hoursAfter('2026-06-01T00:00:00Z', (start + i) * 7 % 25),
        })),
      )),
    );
  };

  it('is one file while the static pages and blogs fit in a part, and an index from one URL more', async () => {
    await addBlogs(PART_SIZE - STATIC_URLS.length);
    const single = await getSitemap(t.app, '/sitemap.xml');
    expect(sitemapUrls(single)).toHaveLength(PART_SIZE);

    await addBlogs(1);
    const index = await getSitemap(t.app, '/sitemap.xml');
    expect(index.name).toBe('sitemapindex');
    expect(childrenNamed(index, 'sitemap')).toHaveLength(1 + 1);
  });

  it('splits the blogs into parts of at most the part size, each valid, together listing every blog once', async () => {
    await addBlogs(25 - blogs.length);
    const index = await getSitemap(t.app, '/sitemap.xml');
    expect(index.name).toBe('sitemapindex');
    expect(index.attributes.xmlns).toBe(SITEMAP_NS);
    const [pagesPart, ...blogParts] = childrenNamed(index, 'sitemap').map((entry) => ({
      loc: textOf(entry, 'loc'),
      lastmod: childrenNamed(entry, 'lastmod')[0]?.text,
    }));

    expect(pagesPart!.loc).toBe(`${TEST_PUBLIC_URL}/sitemap-pages.xml`);
    expect(sitemapUrls(await getSitemap(t.app, localPath(pagesPart!.loc))).map((url) => url.loc)).toEqual(STATIC_URLS);

    expect(blogParts).toHaveLength(3);
    const listed: string[] = [];
    for (const part of blogParts) {
      expect(part.loc).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/sitemap-blogs\\.xml\\?from=[0-9a-f-]{36}$`));
      const urls = sitemapUrls(await getSitemap(t.app, localPath(part.loc)));
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.length).toBeLessThanOrEqual(PART_SIZE);
      for (const url of urls) {
        const blog = blogs.find((candidate) => blogUrl(candidate) === url.loc);
        expect(blog, url.loc).toBeDefined();
        expect(url.lastmod).toBe(blog!.updated_at.toISOString());
      }
      // The index's lastmod for a part is the newest change among its blogs.
      const newest = Math.max(...urls.map((url) => Date.parse(url.lastmod!)));
      expect(part.lastmod).toBe(new Date(newest).toISOString());
      listed.push(...urls.map((url) => url.loc));
    }
    expect(listed.sort()).toEqual(blogs.map((blog) => blogUrl(blog)).sort());
  });

  it.each([
    ['past the last blog', 'ffffffff-ffff-4fff-bfff-ffffffffffff'],
    ['not a blog id', 'not-a-uuid'],
    ['empty', ''],
  ])('answers 404 for a part whose start is %s', async (_label, from) => {
    const response = await t.app.inject({ method: 'GET', url: `/sitemap-blogs.xml?from=${from}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
  });
});

describe('feed queries at 10,000 blogs', () => {
  const COUNT = 10_000;
  const t = useTestApp();
  const { author, other } = useSignedUpUsers(t, ['author', 'other']);

  beforeAll(async () => {
    // Most blogs are one author's, so their feed must not sort all of them.
    await sql`
      insert into blogs (user_id, title, body, created_at, updated_at)
      select case when n % 10 = 0 then ${other.id} else ${author.id} end, 'Blog ' || n, repeat('Text ', 200),
             now() - n * interval '1 minute', now() - n * interval '1 second'
      from generate_series(1, ${COUNT}) as n
    `.execute(t.database.db);
    await sql`analyze blogs`.execute(t.database.db);
    // Index-only scans need the visibility map, which autovacuum keeps current in production; here
    // we vacuum until it covers the table (on Postgres 15 the first pass right after a bulk insert
    // may leave it empty).
    expect(await vacuumBlogsUntilVisible(t.database.db)).toBe(true);
  });

  const plan = (query: Expression<unknown>) => explain(t.database.db, query);

  it("reads the site's newest blogs from their index, not by sorting the table", async () => {
    const text = await plan(newestBlogs(t.database.db, 20));
    expect(text).toContain('blogs_newest_idx');
    expect(text).not.toMatch(/Seq Scan on blogs|Sort/);
  });

  it("reads an author's newest blogs from their index, not by sorting all of theirs", async () => {
    const text = await plan(authorWithNewestBlogs(t.database.db, author.id, 20));
    // Either newest-first index will do (the planner takes the site-wide one when most blogs are theirs).
    expect(text).toMatch(/Index Scan using blogs_(user_)?newest_idx/);
    expect(text).not.toMatch(/Seq Scan on blogs/);
    // Only the 20 rows of the lateral subquery are sorted, if anything is.
    const sortedRows = [...text.matchAll(/Sort {2}\(cost=\S+ rows=(\d+)/g)].map((match) => Number(match[1]));
    expect(sortedRows.every((rows) => rows <= 20), text).toBe(true);
  });

  it('reads a sitemap part as an id range of the covering index (keyset), not by scanning the table', async () => {
    const [middle] = await t.database.db.selectFrom('blogs').select('id').orderBy('id').offset(COUNT / 2).limit(1).execute();
    for (const query of [blogsById(t.database.db, { fromId: middle!.id, limit: 1_000 }), blogsById(t.database.db, { limit: COUNT })]) {
      const text = await plan(query);
      expect(text).toMatch(/Index Only Scan using blogs_sitemap_idx/);
      expect(text).not.toMatch(/Seq Scan on blogs|Sort/);
    }
  });

  it('cuts the sitemap into parts in one pass over the covering index', async () => {
    const text = await plan(sitemapParts(1_000));
    expect(text).toMatch(/Index Only Scan using blogs_sitemap_idx/);
    expect(text).not.toMatch(/Seq Scan on blogs/);
  });

  it('answers every blog in the sitemap and 20 in the feeds', async () => {
    expect(sitemapUrls(await getSitemap(t.app, '/sitemap.xml'))).toHaveLength(COUNT + 4);
    expect(rssItems(rssChannel(await getRss(t.app, '/rss.xml')))).toHaveLength(20);
    expect(rssItems(rssChannel(await getRss(t.app, `/rss.xml?author=${author.id}`)))).toHaveLength(20);
  });
});
