import { parseAtomFeed, parseJsonFeed, parseRssFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { App } from '../app.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, uniqueEmail, type TestUser } from '../testing/test-users.js';
import { htmlElements, htmlText } from '../testing/html-text.js';

/**
 * The feeds as feed readers see them: parsed by feedsmith (a feed reader's parser from npm, not
 * our writer), their HTML read by htmlparser2. Blogs are written through the API, so their HTML
 * and excerpt are what the pages show.
 */

const HOSTILE = 'intro <a href="vbscript:x">v</a> and <b>bold</b> and <iframe src="https://evil.example"></iframe>';
const RICH = [
  '## A heading',
  '',
  'See [the about page](/about), [away](https://else.example/p?a=1&b=2) and **bold** text.',
  '',
  '![A cat](/uploads/blogs/cat-in-feed.webp)',
].join('\n');
const MODERATOR_EMAIL = uniqueEmail('feed-moderator');

type Format = 'rss' | 'atom' | 'json';
const FORMATS: Format[] = ['rss', 'atom', 'json'];
const FEED_PATH: Record<Format, string> = { rss: '/rss.xml', atom: '/atom.xml', json: '/feed.json' };
const CONTENT_TYPE: Record<Format, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

/** One item as a reader gets it, whatever the format. */
interface ReadItem {
  url: string;
  title: string;
  /** RSS `description`, Atom `summary`: HTML; JSON Feed `summary`: plain text (its spec says so). */
  summary: string;
  /** RSS `content:encoded`, Atom `content`, JSON Feed `content_html`. */
  contentHtml: string;
  author: string;
}

function readFeed(format: Format, body: string): { title: string; home: string; items: ReadItem[] } {
  if (format === 'rss') {
    const feed = parseRssFeed(body);
    return {
      title: feed.title!,
      home: feed.link!,
      items: (feed.items ?? []).map((item) => ({
        url: item.link!,
        title: item.title!,
        summary: item.description!,
        contentHtml: item.content?.encoded ?? '',
        author: (item.authors?.[0] as { email?: string } | undefined)?.email ?? '',
      })),
    };
  }
  if (format === 'atom') {
    const feed = parseAtomFeed(body);
    expect(feed.title?.type ?? 'text').toBe('text');
    return {
      title: feed.title!.value!,
      home: feed.links!.find((link) => link.rel === 'alternate')!.href!,
      items: (feed.entries ?? []).map((entry) => {
        expect(entry.title?.type).toBe('text');
        expect(entry.summary?.type).toBe('html');
        expect(entry.content?.type).toBe('html');
        return {
          url: entry.links!.find((link) => link.rel === 'alternate')!.href!,
          title: entry.title!.value!,
          summary: entry.summary!.value!,
          contentHtml: entry.content!.value!,
          author: entry.authors![0]!.email!,
        };
      }),
    };
  }
  const feed = parseJsonFeed(body);
  expect((JSON.parse(body) as { version: string }).version).toBe('https://jsonfeed.org/version/1.1');
  return {
    title: feed.title ?? '',
    home: feed.home_page_url!,
    items: (feed.items ?? []).map((item) => ({
      url: item.url!,
      title: item.title!,
      summary: item.summary!,
      contentHtml: item.content_html!,
      author: item.authors![0]!.name!,
    })),
  };
}

/** What a reader shows of an item's summary: for the HTML ones, its text after checking it makes no element. */
function shownSummary(format: Format, summary: string): string {
  if (format === 'json') return summary;
  expect(htmlElements(summary), summary).toEqual([]);
  return htmlText(summary);
}

async function sendBlogForm(app: App, user: TestUser, method: 'POST' | 'PATCH', url: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Response(form);
  const response = await app.inject({
    method,
    url,
    headers: { cookie: user.cookie, origin: TEST_PUBLIC_URL, 'content-type': encoded.headers.get('content-type')! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(response.statusCode, response.body).toBe(method === 'POST' ? 201 : 200);
  return response.json<Blog>();
}

/** A blog's link in the feeds: its readable address (issue 58). */
const blogUrl = (blog: { slug: string }) => `${TEST_PUBLIC_URL}/blog/${blog.slug}`;
/** The page's HTML with its site-relative URLs made absolute: what the feeds must carry. */
const absolute = (html: string) => html.replace(/ (href|src)="\//g, ` $1="${TEST_PUBLIC_URL}/`);

describe('the feeds, as feed readers parse them', () => {
  let t: TestApp;
  let moderator: TestUser;
  let writer: TestUser;
  let suspended: TestUser;
  let hostile: Blog;
  let rich: Blog;
  let draft: Blog;
  let hidden: Blog;
  let suspendedBlog: Blog;

  const get = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });
  const read = async (format: Format, query = '') => {
    const response = await get(`${FEED_PATH[format]}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(CONTENT_TYPE[format]);
    return readFeed(format, response.body);
  };
  const moderate = async (payload: Record<string, string>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/moderation/actions',
      headers: { cookie: moderator.cookie, origin: TEST_PUBLIC_URL },
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL });
    [moderator, writer, suspended] = await Promise.all([signUpUser(t.app, { email: MODERATOR_EMAIL }), signUpUser(t.app), signUpUser(t.app)]);
    hostile = await sendBlogForm(t.app, writer, 'POST', '/api/blogs', { title: 'Hostile <b>title</b>', blog: HOSTILE });
    rich = await sendBlogForm(t.app, writer, 'POST', '/api/blogs', { title: 'Rich', blog: RICH });
    draft = await sendBlogForm(t.app, writer, 'POST', '/api/blogs', { title: 'Draft', blog: 'Not yet.', status: 'draft' });
    hidden = await sendBlogForm(t.app, writer, 'POST', '/api/blogs', { title: 'Hidden', blog: 'Hidden by a moderator.' });
    suspendedBlog = await sendBlogForm(t.app, suspended, 'POST', '/api/blogs', { title: 'Suspended', blog: 'By a suspended author.' });
    await moderate({ action: 'hide', targetType: 'blog', targetId: hidden.id });
    await moderate({ action: 'suspend', userId: suspended.id });
  });
  afterAll(() => t.close());

  it('carries the same items in all three formats, newest first, each linking to its page', async () => {
    const feeds = await Promise.all(FORMATS.map((format) => read(format)));
    for (const feed of feeds) {
      expect(feed.home).toBe(`${TEST_PUBLIC_URL}/`);
      expect(feed.items.map((item) => item.url)).toEqual([blogUrl(rich), blogUrl(hostile)]);
      expect(feed.items.map((item) => item.title)).toEqual(['Rich', 'Hostile <b>title</b>']);
      expect(feed.items.map((item) => item.author)).toEqual([writer.email, writer.email]);
    }
  });

  it.each(FORMATS)('%s: the hostile body arrives in the summary as the same text, < and > visible, no element created', async (format) => {
    const item = (await read(format)).items.find((candidate) => candidate.url === blogUrl(hostile))!;
    expect(hostile.excerpt).toBe(HOSTILE);
    expect(shownSummary(format, item.summary)).toBe(HOSTILE);
  });

  it.each(FORMATS)("%s: the content is the page's sanitised HTML with absolute URLs", async (format) => {
    const items = (await read(format)).items;
    for (const blog of [rich, hostile]) {
      const item = items.find((candidate) => candidate.url === blogUrl(blog))!;
      // (The parser trims the text around it: the page's HTML ends with a newline.)
      expect(item.contentHtml).toBe(absolute(blog.html).trim());
      for (const element of htmlElements(item.contentHtml)) {
        for (const name of ['href', 'src']) {
          if (element.attribs[name] !== undefined) expect(element.attribs[name]).toMatch(/^https?:\/\//);
        }
        expect(Object.keys(element.attribs).filter((name) => name.startsWith('on'))).toEqual([]);
      }
    }
    const richContent = items.find((candidate) => candidate.url === blogUrl(rich))!.contentHtml;
    expect(richContent).toContain(`<img src="${TEST_PUBLIC_URL}/uploads/blogs/cat-in-feed.webp" alt="A cat"`);
    expect(richContent).toContain(`<a href="${TEST_PUBLIC_URL}/about" rel="nofollow ugc noopener">the about page</a>`);
    expect(richContent).toContain('<a href="https://else.example/p?a=1&amp;b=2" rel="nofollow ugc noopener">away</a>');
    expect(richContent).toContain('<h3>A heading</h3>');
    // The hostile body's markup is text in a paragraph: the only element besides it is the autolink of the address.
    const hostileContent = items.find((candidate) => candidate.url === blogUrl(hostile))!.contentHtml;
    expect(htmlElements(hostileContent)).toEqual([
      { name: 'p', attribs: {} },
      { name: 'a', attribs: { href: 'https://evil.example', rel: 'nofollow ugc noopener' } },
    ]);
    expect(htmlText(hostileContent).trim()).toBe(HOSTILE);
  });

  it('puts a draft, a hidden blog and a suspended author’s blog in no feed, nor in the sitemap', async () => {
    const left = [draft, hidden, suspendedBlog].map((blog) => blog.id);
    for (const format of FORMATS) {
      for (const query of ['', `?author=${writer.id}`, `?author=${suspended.id}`]) {
        const response = await get(`${FEED_PATH[format]}${query}`);
        expect(response.statusCode).toBe(200);
        for (const id of left) expect(response.body, `${format}${query}`).not.toContain(id);
      }
    }
    const sitemap = (await get('/sitemap.xml')).body;
    for (const id of left) expect(sitemap).not.toContain(id);
    for (const blog of [draft, hidden, suspendedBlog]) expect(sitemap).not.toContain(`${blogUrl(blog)}<`);
    // They are there, for the ones who may see them, and come back with their state.
    await moderate({ action: 'restore', targetType: 'blog', targetId: hidden.id });
    await moderate({ action: 'unsuspend', userId: suspended.id });
    try {
      for (const format of FORMATS) {
        const urls = (await read(format)).items.map((item) => item.url);
        expect(urls).toContain(blogUrl(hidden));
        expect(urls).toContain(blogUrl(suspendedBlog));
        expect(urls).not.toContain(blogUrl(draft));
      }
    } finally {
      await moderate({ action: 'hide', targetType: 'blog', targetId: hidden.id });
      await moderate({ action: 'suspend', userId: suspended.id });
    }
  });

  it.each(FORMATS)("%s?author= is one author's feed, linking to their page", async (format) => {
    const feed = await read(format, `?author=${writer.id}`);
    expect(feed.title).toContain(writer.email);
    expect(feed.home).toBe(`${TEST_PUBLIC_URL}/author?id=${writer.id}`);
    expect(feed.items.map((item) => item.url)).toEqual([blogUrl(rich), blogUrl(hostile)]);
    expect((await read(format, `?author=${moderator.id}`)).items).toEqual([]);
    const unknown = await get(`${FEED_PATH[format]}?author=NoSuchUser0123456789abcdef`);
    expect(unknown.statusCode).toBe(404);
    expect((await get(`${FEED_PATH[format]}?author=%3Cscript%3E`)).statusCode).toBe(404);
  });

  it('names its own address and the other two formats’ in each feed', async () => {
    const rss = (await get('/rss.xml')).body;
    expect(rss).toContain(`<atom:link href="${TEST_PUBLIC_URL}/rss.xml" rel="self" type="application/rss+xml"/>`);
    const atom = parseAtomFeed((await get(`/atom.xml?author=${writer.id}`)).body);
    expect(atom.id).toBe(`${TEST_PUBLIC_URL}/atom.xml?author=${writer.id}`);
    expect(atom.links?.find((link) => link.rel === 'self')?.href).toBe(`${TEST_PUBLIC_URL}/atom.xml?author=${writer.id}`);
    const json = parseJsonFeed((await get('/feed.json')).body);
    expect(json.feed_url).toBe(`${TEST_PUBLIC_URL}/feed.json`);
  });
});
