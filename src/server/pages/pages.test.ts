import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import { PAGE_STATE_ID } from '../../shared/page-render.js';
import { solidPng } from '../testing/image-fixtures.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { signUpUser, type TestUser } from '../testing/test-users.js';

/** A page as a browser would parse it, with the parts the tests read. */
function parsePage(html: string) {
  const document = parseDocument(html);
  const all = (predicate: (element: Element) => boolean) => DomUtils.findAll(predicate, document.children);
  const one = (predicate: (element: Element) => boolean) => all(predicate)[0];
  const meta = (key: string) =>
    one((e) => e.name === 'meta' && (e.attribs.property === key || e.attribs.name === key))?.attribs.content;
  const scripts = all((e) => e.name === 'script');
  const jsonLd = scripts.find((e) => e.attribs.type === 'application/ld+json');
  const state = scripts.find((e) => e.attribs.id === PAGE_STATE_ID);
  return {
    title: DomUtils.textContent(one((e) => e.name === 'title')!),
    titles: all((e) => e.name === 'title').length,
    description: meta('description'),
    canonical: one((e) => e.name === 'link' && e.attribs.rel === 'canonical')?.attribs.href,
    feed: one((e) => e.name === 'link' && e.attribs.rel === 'alternate' && e.attribs.type === 'application/rss+xml')?.attribs.href,
    feeds: all((e) => e.name === 'link' && e.attribs.rel === 'alternate').map((e) => ({ type: e.attribs.type, title: e.attribs.title, href: e.attribs.href })),
    meta,
    scripts,
    jsonLd: jsonLd ? (JSON.parse(DomUtils.textContent(jsonLd)) as Record<string, unknown>) : undefined,
    state: state ? (JSON.parse(DomUtils.textContent(state)) as { queries: { queries: { state: { data: unknown } }[] } }) : undefined,
    text: DomUtils.textContent(one((e) => e.attribs.id === 'root')!).replace(/\s+/g, ' '),
  };
}

/** What every page announces in its head: the site's feed in each format. */
const SITE_FEEDS = [
  { type: 'application/rss+xml', title: 'Field Notes (RSS)', href: `${TEST_PUBLIC_URL}/rss.xml` },
  { type: 'application/atom+xml', title: 'Field Notes (Atom)', href: `${TEST_PUBLIC_URL}/atom.xml` },
  { type: 'application/feed+json', title: 'Field Notes (JSON Feed)', href: `${TEST_PUBLIC_URL}/feed.json` },
];

/** Titles and bodies that try to break out of every place a page puts them. */
const HOSTILE_TITLE = `</title><script>alert("t")</script> "quoted" & '</script><!-- $& $1 日本語`;

describe('server-rendered pages', () => {
  let t: TestApp;
  let author: TestUser;
  const blogs: Blog[] = [];
  let imageBlog: Blog;
  let hostileBlog: Blog;

  const createBlog = (title: string, blog: string, image?: Buffer) => postBlog(t.app, author, { title, blog }, image);

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await createTestApp({ SITE_NAME: 'Field Notes' }, { pages: 'vite' });
    author = await signUpUser(t.app);
    for (let i = 1; i <= 7; i++) blogs.push(await createBlog(`Plain blog ${i}`, `The text of blog ${i}.\nA second line.`));
    imageBlog = await createBlog('Blog with a picture', 'Words. '.repeat(60), await solidPng(640, 360));
    hostileBlog = await createBlog(HOSTILE_TITLE, `</script><script>alert("b")</script> & ]]> $& body`);
  }, 120_000);
  afterAll(() => t.close());

  it('renders the home page with its five cards, its own head and the query cache', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = parsePage(response.body);
    expect(page.title).toBe('Field Notes');
    expect(page.titles).toBe(1);
    expect(page.canonical).toBe(`${TEST_PUBLIC_URL}/`);
    expect(page.feed).toBe(`${TEST_PUBLIC_URL}/rss.xml`);
    expect(page.feeds).toEqual(SITE_FEEDS);
    expect(page.meta('og:type')).toBe('website');
    expect(page.meta('og:site_name')).toBe('Field Notes');
    expect(page.meta('og:url')).toBe(`${TEST_PUBLIC_URL}/`);
    expect(page.meta('twitter:card')).toBe('summary');
    expect(page.text.match(/View this Blog/g)).toHaveLength(5);
    expect(page.text).toContain('Upvote Count: 0');
    expect(page.text).toContain(`Author: ${author.email}`);
    const [list] = page.state!.queries.queries;
    expect((list!.state.data as { items: unknown[] }).items).toHaveLength(5);
  });

  it('links IndieAuth’s metadata from the home page and an author’s page, not from others, and Micropub from every page; serves the consent screen (issue 60)', async () => {
    const link = (html: string) => DomUtils.findOne((e) => e.name === 'link' && e.attribs.rel === 'indieauth-metadata', parseDocument(html).children)?.attribs.href;
    for (const url of ['/', `/author?id=${author.id}`]) expect(link((await get(url)).body), url).toBe(`${TEST_PUBLIC_URL}/.well-known/oauth-authorization-server`);
    expect(link((await get('/tags')).body)).toBeUndefined();
    // The home page names Micropub's endpoint in a Link header too, asked twice (the second may be the response cache's answer).
    for (let n = 0; n < 2; n++) expect((await get('/')).headers.link).toContain(`<${TEST_PUBLIC_URL}/micropub>; rel="micropub"`);
    expect((await get('/tags')).headers.link).toBeUndefined();
    // Micropub's endpoint is linked from every page.
    expect(DomUtils.findOne((e) => e.name === 'link' && e.attribs.rel === 'micropub', parseDocument((await get('/tags')).body).children)?.attribs.href).toBe(`${TEST_PUBLIC_URL}/micropub`);
    const consent = await get('/indieauth/authorize?response_type=code');
    expect(consent.statusCode).toBe(200);
    expect(parsePage(consent.body).title).toContain('Allow an app?');
  });

  it('renders the next five on ?page=2, with its own canonical link', async () => {
    const first = parsePage((await get('/')).body);
    const second = parsePage((await get('/?page=2')).body);
    expect(second.canonical).toBe(`${TEST_PUBLIC_URL}/?page=2`);
    expect(second.title).toBe('Blogs, page 2 · Field Notes');
    const titlesOn = (text: string) => [...text.matchAll(/Plain blog \d|Blog with a picture/g)].map((m) => m[0]);
    expect(titlesOn(second.text).length).toBeGreaterThan(0);
    expect(titlesOn(second.text).filter((title) => titlesOn(first.text).includes(title))).toEqual([]);
  });

  it.each([
    ['its readable address', () => `/blog/${imageBlog.slug}`],
    ['/viewBlog?id=', () => `/viewBlog?id=${imageBlog.id}`],
  ])('renders a blog at %s as an article: title, description, Open Graph with an absolute image, Twitter card, JSON-LD', async (_case, path) => {
    const response = await get(path());
    expect(response.statusCode).toBe(200);
    const page = parsePage(response.body);
    // Both addresses name the readable one as the page's URL (issue 58).
    expect(imageBlog.slug).toBe('blog-with-a-picture');
    const url = `${TEST_PUBLIC_URL}/blog/blog-with-a-picture`;
    expect(page.title).toBe('Blog with a picture · Field Notes');
    expect(page.description!.length).toBeLessThanOrEqual(156);
    expect(page.description).toMatch(/^Words\. Words\..*…$/);
    expect(page.canonical).toBe(url);
    expect(page.meta('og:type')).toBe('article');
    expect(page.meta('og:title')).toBe('Blog with a picture');
    expect(page.meta('og:url')).toBe(url);
    // The 1200 × 630 crop made for previews.
    expect(imageBlog.image?.ogUrl).toMatch(/-og\.webp$/);
    expect(page.meta('og:image')).toBe(`${TEST_PUBLIC_URL}${imageBlog.image!.ogUrl}`);
    expect(page.meta('twitter:card')).toBe('summary_large_image');
    expect(page.jsonLd).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Blog with a picture',
      datePublished: imageBlog.createdAt,
      dateModified: imageBlog.updatedAt,
      author: { '@type': 'Person', name: author.email },
      image: `${TEST_PUBLIC_URL}${imageBlog.image!.ogUrl}`,
      url,
    });
    expect(page.text).toContain('Words. Words.');
  });

  it("answers a blog's old address with a 301 to its new one, and an unknown address with the blog's 404", async () => {
    const renamed = await createBlog('A title to change', 'Words.');
    const form = new FormData();
    form.append('title', 'A title changed');
    form.append('blog', 'Words.');
    const body = new Response(form);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/blogs/${renamed.id}`,
      payload: Buffer.from(await body.arrayBuffer()),
      headers: { cookie: author.cookie, origin: TEST_PUBLIC_URL, 'content-type': body.headers.get('content-type')! },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const moved = await get('/blog/a-title-to-change');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/blog/a-title-changed');
    const page = parsePage((await get('/blog/a-title-changed')).body);
    expect(page.canonical).toBe(`${TEST_PUBLIC_URL}/blog/a-title-changed`);
    expect(page.text).toContain('A title changed');
    for (const path of ['/blog/no-such-blog', '/blog/Not%20a%20slug']) {
      const missing = await get(path);
      expect(missing.statusCode, path).toBe(404);
      expect(parsePage(missing.body).text).toContain('This blog does not exist');
    }
  });

  it('gives a blog without an image a summary card and no og:image', async () => {
    const page = parsePage((await get(`/viewBlog?id=${blogs[0]!.id}`)).body);
    expect(page.meta('og:image')).toBeUndefined();
    expect(page.meta('twitter:card')).toBe('summary');
    expect(page.jsonLd).not.toHaveProperty('image');
    expect(page.text).toContain('The text of blog 1.');
  });

  it('escapes a hostile title and body everywhere: title, meta, JSON-LD, state and the page', async () => {
    const response = await get(`/viewBlog?id=${hostileBlog.id}`);
    const page = parsePage(response.body);
    expect(page.title).toBe(`${HOSTILE_TITLE} · Field Notes`);
    expect(page.titles).toBe(1);
    expect(page.meta('og:title')).toBe(HOSTILE_TITLE);
    expect(page.meta('twitter:title')).toBe(HOSTILE_TITLE);
    expect(page.jsonLd!.headline).toBe(HOSTILE_TITLE);
    expect(page.text).toContain(HOSTILE_TITLE);
    expect(page.text).toContain('</script><script>alert("b")</script> & ]]> $& body');
    // Only our own scripts: the module, the JSON-LD and the state; none came from the blog.
    expect(page.scripts.map((s) => s.attribs.type ?? s.attribs.src)).toEqual(expect.arrayContaining(['application/ld+json', 'application/json']));
    expect(page.scripts.filter((s) => !['application/ld+json', 'application/json', 'module'].includes(s.attribs.type ?? ''))).toEqual([]);
    expect(response.body).not.toContain('<script>alert');
  });

  it('renders a search with its count line and results', async () => {
    const response = await get('/search?searchTerm=picture');
    expect(response.statusCode).toBe(200);
    const page = parsePage(response.body);
    expect(page.title).toBe('Search: picture · Field Notes');
    expect(page.canonical).toBe(`${TEST_PUBLIC_URL}/search?searchTerm=picture`);
    expect(page.text).toContain('1 blogs matched the search term picture');
    expect(page.text).toContain('Blog with a picture');
    expect(parsePage((await get('/search?searchTerm=zzzunmatched')).body).text).toContain('No Blogs Found');
  });

  it('renders About and Support in full, FAQ answers included', async () => {
    const about = parsePage((await get('/about')).body);
    expect(about.title).toBe('About · Field Notes');
    expect(about.text).toContain('About us');
    const support = parsePage((await get('/support')).body);
    expect(support.title).toBe('Support · Field Notes');
    expect(support.text).toContain('How do I delete my data?');
    expect(support.text).toContain('Open Settings and choose Delete Account.');
  });

  it.each([
    ['a missing id', '/viewBlog'],
    ['a malformed id', '/viewBlog?id=not-a-uuid'],
    ['an unknown id', '/viewBlog?id=3f1c8a52-59c4-4c38-9a5c-7f3c0e0b2a11'],
  ])('answers /viewBlog with %s with 404 and "This blog does not exist"', async (_case, url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    const page = parsePage(response.body);
    expect(page.text).toContain('This blog does not exist');
    expect(page.title).toBe('This blog does not exist · Field Notes');
  });

  it('answers unknown paths with 404 and the not-found screen', async () => {
    for (const url of ['/no/such/page', '/blogs', '/about/extra']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(parsePage(response.body).text).toContain('The Page you are looking for does not exist');
    }
  });

  it('redirects /edit without an id to the home page, on the server', async () => {
    const response = await get('/edit');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect((await get(`/edit?id=${blogs[0]!.id}`)).statusCode).toBe(200);
  });

  it('renders the screens that need a session as a loading view for everyone', async () => {
    for (const [url, title] of [
      ['/create', 'Create a Blog'],
      ['/settings', 'Settings'],
      ['/ai', 'AI Blog Generator'],
      ['/drafts', 'My Drafts'],
      ['/following', 'Following on the fediverse'],
      ['/auth', 'Login or Register'],
    ]) {
      const response = await get(url!);
      expect(response.statusCode, url).toBe(200);
      expect(parsePage(response.body).title).toBe(`${title} · Field Notes`);
    }
  });

  it("answers a draft's page with 404 and 'This blog does not exist', for anyone (pages render anonymously)", async () => {
    const draft = await t.database.db
      .insertInto('blogs')
      .values({ user_id: blogs[0]!.userId, title: 'A secret draft title', body: 'Unpublished words', status: 'draft' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const response = await get(`/viewBlog?id=${draft.id}`);
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('This blog does not exist');
    expect(response.body).not.toContain('A secret draft title');
  });

  it("renders a signed-in visitor's page with their vote and session, and nothing of it reaches anyone else's", async () => {
    const voter = await signUpUser(t.app);
    const vote = await t.app.inject({
      method: 'PUT',
      url: `/api/blogs/${blogs[1]!.id}/vote`,
      headers: { cookie: voter.cookie, origin: TEST_PUBLIC_URL },
      payload: { direction: 'up' },
    });
    expect(vote.statusCode).toBe(200);
    const signedIn = parsePage((await get(`/viewBlog?id=${blogs[1]!.id}`, { cookie: voter.cookie })).body);
    const anonymous = parsePage((await get(`/viewBlog?id=${blogs[1]!.id}`)).body);
    expect(signedIn.text).toContain('Remove my vote');
    expect(JSON.stringify(signedIn.state)).toContain(voter.email);
    expect(JSON.stringify(signedIn.state)).toContain('"myVote":"up"');
    expect(anonymous.text).not.toContain('Remove my vote');
    expect(anonymous.text).not.toContain(voter.email);
    expect(JSON.stringify(anonymous.state)).not.toContain(voter.email);
    expect(JSON.stringify(anonymous.state)).toContain('"myVote":null');
  });

  it('keeps the Content-Security-Policy free of inline scripts on pages', async () => {
    const csp = (await get('/')).headers['content-security-policy'] as string;
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
  });
  it("announces the site's three feeds on every page, and an author's page its own three too", async () => {
    for (const url of ['/', '/about', `/viewBlog?id=${blogs[0]!.id}`, '/search?searchTerm=picture', '/no-such-page']) {
      expect(parsePage((await get(url)).body).feeds, url).toEqual(SITE_FEEDS);
    }
    const page = parsePage((await get(`/author?id=${author.id}`)).body);
    const title = `Blogs by ${author.email}`;
    expect(page.feeds).toEqual([
      ...SITE_FEEDS,
      { type: 'application/rss+xml', title: `${title} (RSS)`, href: `${TEST_PUBLIC_URL}/rss.xml?author=${author.id}` },
      { type: 'application/atom+xml', title: `${title} (Atom)`, href: `${TEST_PUBLIC_URL}/atom.xml?author=${author.id}` },
      { type: 'application/feed+json', title: `${title} (JSON Feed)`, href: `${TEST_PUBLIC_URL}/feed.json?author=${author.id}` },
    ]);
  });
});

describe('server-rendered pages in the response cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RESPONSE_CACHE_MB: '8' }, { pages: 'vite' });
  }, 120_000);
  afterAll(() => t.close());

  it('answers a repeated anonymous page from memory, compressed as asked, and revalidates with 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['x-cache']).toBe('miss');
    const html = brotliDecompressSync(first.rawPayload).toString();
    expect(html).toContain('About us');
    const again = await t.app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'gzip' } });
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(again.rawPayload).toString()).toBe(html);
    const plain = await t.app.inject({ method: 'GET', url: '/about' });
    expect(plain.body).toBe(html);
    const revalidated = await t.app.inject({ method: 'GET', url: '/about', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
  });

  it("keeps the pages each screen declares, under the screen's tags, and never the others", async () => {
    const writer = await signUpUser(t.app);
    const blog = await postBlog(t.app, writer, { title: 'A kept page', blog: 'Its text.' });
    const other = await postBlog(t.app, writer, { title: 'Another kept page', blog: 'Its text.' });
    // The blogs' events (the caches' own drop among their follow-ups) are done before anything is kept.
    await t.settled();
    const page = (url: string) => t.app.inject({ method: 'GET', url });
    for (const url of ['/', '/?sort=new&page=1', `/viewBlog?id=${blog.id}`, `/viewBlog?id=${other.id}`, '/search?searchTerm=kept', `/author?id=${writer.id}`, '/tags', '/support']) {
      const first = await page(url);
      expect(first.statusCode, url).toBe(200);
      const again = await page(url);
      expect(again.headers['x-cache'], url).toBe('hit');
      // A blog's page URL also answers its ActivityPub Article: its answers vary on Accept, kept or not.
      const negotiated = url.startsWith('/viewBlog');
      for (const answer of [first, again]) expect(String(answer.headers.vary).split(/,\s*/).includes('accept'), url).toBe(negotiated);
    }
    // Screens about their reader ('never') and not-found answers are never kept.
    for (const url of ['/create', '/settings', '/drafts', '/following', '/no-such-page']) {
      await page(url);
      expect((await page(url)).headers['x-cache'], url).toBeUndefined();
    }
    // A vote on one blog drops its page and the lists, not the other blog's page or the static ones.
    const voter = await signUpUser(t.app);
    const vote = await t.app.inject({ method: 'PUT', url: `/api/blogs/${blog.id}/vote`, headers: { cookie: voter.cookie, origin: TEST_PUBLIC_URL }, payload: { direction: 'up' } });
    expect(vote.statusCode, vote.body).toBe(200);
    expect((await page(`/viewBlog?id=${blog.id}`)).headers['x-cache']).toBe('miss');
    expect((await page('/')).headers['x-cache']).toBe('miss');
    expect((await page(`/viewBlog?id=${other.id}`)).headers['x-cache']).toBe('hit');
    expect((await page('/support')).headers['x-cache']).toBe('hit');
  }, 120_000);

  it("renders a signed-in reader's page with their controls and session, private and never from nor into the cache", { timeout: 120_000 }, async () => {
    const [owner, reader] = [await signUpUser(t.app), await signUpUser(t.app)];
    const blog = await postBlog(t.app, owner, { title: 'Rendered for you', blog: 'Read me.' });
    await t.settled();
    const text = (html: string) => DomUtils.textContent(DomUtils.findOne((e) => e.attribs.id === 'root', parseDocument(html).children)!).replace(/\s+/g, ' ');

    // The anonymous page first, so the cache holds it: a signed-in request must not be answered with it.
    const anonymous = await t.app.inject({ method: 'GET', url: `/viewBlog?id=${blog.id}` });
    expect(anonymous.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ method: 'GET', url: `/viewBlog?id=${blog.id}` })).headers['x-cache']).toBe('hit');
    expect(text(anonymous.body)).toContain('Sign in to comment');
    expect(anonymous.body).not.toMatch(/>Upvote<\/button>/);

    for (const [user, isOwner] of [[owner, true], [reader, false]] as const) {
      const page = await t.app.inject({ method: 'GET', url: `/viewBlog?id=${blog.id}`, headers: { cookie: user.cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect(page.headers['x-cache']).toBeUndefined();
      const seen = text(page.body);
      expect(page.body).toMatch(/>Upvote<\/button>/);
      expect(page.body).toMatch(/>Downvote<\/button>/);
      expect(seen).toContain('Add a comment');
      expect(seen).not.toContain('Sign in to comment');
      expect(seen.includes('Edit Blog')).toBe(isOwner);
      expect(seen.includes('Delete Blog')).toBe(isOwner);
      // The signed-in More menu is in the HTML (closed), and the session travels in the page's state.
      expect(seen).toContain('Log out');
      expect(seen).toContain('Settings');
      const state = parsePage(page.body).state as { queries: { queries: Array<{ queryKey: unknown[]; state: { data: unknown } }> } };
      const session = state.queries.queries.find((q) => q.queryKey[0] === 'session')?.state.data as { user: { email: string } };
      expect(session.user.email).toBe(user.email);
    }

    // The home page and a search, the same way; and the cache still answers anonymous readers with the anonymous page.
    for (const url of ['/', '/search?searchTerm=Rendered']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { cookie: reader.cookie } });
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect(text(page.body)).toContain('Log out');
      const again = await t.app.inject({ method: 'GET', url, headers: { cookie: reader.cookie } });
      expect(again.headers['x-cache']).toBeUndefined();
      expect(text((await t.app.inject({ method: 'GET', url })).body)).not.toContain('Log out');
    }
    const afterwards = await t.app.inject({ method: 'GET', url: `/viewBlog?id=${blog.id}` });
    expect(afterwards.headers['x-cache']).toBe('hit');
    expect(afterwards.body).toBe(anonymous.body);

    // A cookie that names no session: the anonymous page's controls, still private.
    const stale = await t.app.inject({ method: 'GET', url: `/viewBlog?id=${blog.id}`, headers: { cookie: 'better-auth.session_token=nothing.here' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['cache-control']).toBe('private, no-store');
    expect(text(stale.body)).toContain('Sign in to comment');
  });
});
