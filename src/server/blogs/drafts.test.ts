import { randomBytes } from 'node:crypto';
import { type Expression, sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Blog, BlogPage, SearchPage } from '../../shared/blog-schema.js';
import { messages } from '../../shared/messages.js';
import type { App } from '../app.js';
import { authorWithNewestBlogs, blogsById, newestBlogs, sitemapParts } from '../feeds/feeds.repository.js';
import { preferTitleIndex, searchBlogRows } from '../search/search.repository.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { signUpUser, type TestUser, useSignedUpUsers } from '../testing/test-users.js';
import { selectPageIds } from './blogs.repository.js';
import { explain, vacuumBlogsUntilVisible } from '../testing/query-plans.js';

/** A real multipart body, sent the way the browser's form sends it (from the site's origin). */
async function send(app: App, method: 'POST' | 'PATCH', url: string, user: TestUser | null, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Response(form);
  return app.inject({
    method,
    url,
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: {
      origin: TEST_PUBLIC_URL,
      'content-type': encoded.headers.get('content-type')!,
      ...(user ? { cookie: user.cookie } : {}),
    },
  });
}

const get = (app: App, url: string, user?: TestUser | null) =>
  app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });

/**
 * Until the second of the feeds' last change is over (and its margin), a feed answers without a
 * `Last-Modified`, and the cache keeps that answer only until then (`feedsChanged`): on a busy
 * machine the copy a test cached could expire before the test looks again. Waits for the dated
 * answer, which is kept until a change drops it.
 */
async function feedDated(app: App) {
  await vi.waitFor(async () => expect((await get(app, '/rss.xml')).headers['last-modified']).toBeDefined(), { timeout: 10_000, interval: 100 });
}

/** Whether a list, feed or sitemap names the blog: by its id, or (the sitemap) by its readable address. */
const mentions = (body: string, blog: Blog) => body.includes(blog.id) || body.includes(`/blog/${blog.slug}<`);

/** A title word no other blog has, so search finds exactly the blogs of one test. */
const uniqueWord = () => `word${randomBytes(4).toString('hex')}`;

/**
 * Every public place a blog can show up, as an anonymous visitor (and the home list and search
 * also as a signed-in reader): whether the blog's id appears in it.
 */
async function publicAppearances(app: App, blog: Blog, word: string, reader: TestUser) {
  const home = (await get(app, '/api/blogs?page=1')).json<BlogPage>();
  const homeSignedIn = (await get(app, '/api/blogs?page=1', reader)).json<BlogPage>();
  const search = (await get(app, `/api/search?searchTerm=${word}`)).json<SearchPage>();
  const searchSignedIn = (await get(app, `/api/search?searchTerm=${word}`, reader)).json<SearchPage>();
  const rss = (await get(app, '/rss.xml')).body;
  const authorRss = await get(app, `/rss.xml?author=${blog.userId}`);
  const sitemap = (await get(app, '/sitemap.xml')).body;
  expect(authorRss.statusCode).toBe(200);
  return {
    home: home.items.some((item) => item.id === blog.id),
    homeSignedIn: homeSignedIn.items.some((item) => item.id === blog.id),
    search: search.items.some((item) => item.id === blog.id),
    searchSignedIn: searchSignedIn.items.some((item) => item.id === blog.id),
    searchTotal: search.total,
    rss: rss.includes(blog.id),
    authorRss: authorRss.body.includes(blog.id),
    sitemap: mentions(sitemap, blog),
  };
}

const nowhere = { home: false, homeSignedIn: false, search: false, searchSignedIn: false, searchTotal: 0, rss: false, authorRss: false, sitemap: false };
const everywhere = { home: true, homeSignedIn: true, search: true, searchSignedIn: true, searchTotal: 1, rss: true, authorRss: true, sitemap: true };

describe('drafts', () => {
  const t = useTestApp();
  const { owner, stranger } = useSignedUpUsers(t, ['owner', 'stranger']);

  async function createDraft(fields: Record<string, string>): Promise<Blog> {
    const response = await send(t.app, 'POST', '/api/blogs', owner, { status: 'draft', ...fields });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Blog>();
  }

  it('creates a published blog without a status (the spec flow) and a draft with status=draft', async () => {
    const published = await send(t.app, 'POST', '/api/blogs', owner, { title: 'Published', blog: 'Text' });
    expect(published.statusCode).toBe(201);
    expect(published.json<Blog>().status).toBe('published');
    const draft = await createDraft({ title: 'Half done', blog: 'Text' });
    expect(draft.status).toBe('draft');
  });

  it('lets a draft lack a title or content, but not publishing, and refuses an unknown status', async () => {
    const empty = await createDraft({ title: '', blog: '' });
    expect([empty.title, empty.blog]).toEqual(['', '']);
    const publish = await send(t.app, 'PATCH', `/api/blogs/${empty.id}`, owner, { title: '', blog: 'Now some text', status: 'published' });
    expect(publish.statusCode).toBe(400);
    expect(publish.json()).toMatchObject({ message: messages.addTitle });
    // Without a status a draft stays a draft, so an autosave may still be incomplete.
    const kept = await send(t.app, 'PATCH', `/api/blogs/${empty.id}`, owner, { title: '', blog: 'More text' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<Blog>()).toMatchObject({ status: 'draft', blog: 'More text' });
    const bad = await send(t.app, 'POST', '/api/blogs', owner, { title: 'T', blog: 'B', status: 'secret' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'The status must be draft or published.' });
    // A published blog edited without a status still needs its title.
    const live = (await send(t.app, 'POST', '/api/blogs', owner, { title: 'Live', blog: 'Text' })).json<Blog>();
    expect((await send(t.app, 'PATCH', `/api/blogs/${live.id}`, owner, { title: '', blog: 'Text' })).statusCode).toBe(400);
  });

  it('shows a draft to its owner only: 404 for anonymous readers and other users, on read, edit, delete and vote', async () => {
    const draft = await createDraft({ title: 'Private thoughts', blog: 'Not yet' });
    const mine = await get(t.app, `/api/blogs/${draft.id}`, owner);
    expect(mine.statusCode).toBe(200);
    expect(mine.json<Blog>()).toMatchObject({ id: draft.id, status: 'draft' });

    for (const reader of [null, stranger]) {
      const response = await get(t.app, `/api/blogs/${draft.id}`, reader);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: messages.blogDoesNotExist });
    }
    // Not 403: another user cannot even learn that the draft exists.
    expect((await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, stranger, { title: 'Mine now', blog: 'x' })).statusCode).toBe(404);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${draft.id}`, headers: { cookie: stranger.cookie, origin: TEST_PUBLIC_URL } });
    expect(deleted.statusCode).toBe(404);
    const vote = await t.app.inject({
      method: 'PUT',
      url: `/api/blogs/${draft.id}/vote`,
      headers: { cookie: stranger.cookie, origin: TEST_PUBLIC_URL },
      payload: { direction: 'up' },
    });
    expect(vote.statusCode).toBe(404);
    expect((await get(t.app, `/api/blogs/${draft.id}`, owner)).json<Blog>()).toMatchObject({ title: 'Private thoughts', upvotes: 0 });
  });

  it('keeps a draft out of every public list, search, count, feed and the sitemap until it is published', async () => {
    const word = uniqueWord();
    const draft = await createDraft({ title: `Secret ${word}`, blog: 'Drafted' });
    expect(await publicAppearances(t.app, draft, word, owner)).toEqual(nowhere);

    const published = await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, owner, { title: `Secret ${word}`, blog: 'Drafted', status: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json<Blog>().status).toBe('published');
    expect(await publicAppearances(t.app, draft, word, owner)).toEqual(everywhere);
    expect((await get(t.app, `/api/blogs/${draft.id}`)).statusCode).toBe(200);

    // And back: a published blog turned into a draft leaves every public place again.
    const unpublished = await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, owner, { title: `Secret ${word}`, blog: 'Drafted', status: 'draft' });
    expect(unpublished.json<Blog>().status).toBe('draft');
    expect(await publicAppearances(t.app, draft, word, owner)).toEqual(nowhere);
    expect((await get(t.app, `/api/blogs/${draft.id}`)).statusCode).toBe(404);
  });

  it('dates a published draft from its publication, so it comes first among the newest', async () => {
    const draft = await createDraft({ title: 'Written long ago', blog: 'Old words' });
    await t.database.db.updateTable('blogs').set({ created_at: new Date('2020-01-01T00:00:00Z') }).where('id', '=', draft.id).execute();
    const before = Date.now();
    const published = (await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, owner, { title: 'Written long ago', blog: 'Old words', status: 'published' })).json<Blog>();
    expect(Date.parse(published.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    // Editing it afterwards keeps that date.
    const edited = (await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, owner, { title: 'Written long ago', blog: 'Edited' })).json<Blog>();
    expect(edited.createdAt).toBe(published.createdAt);
    expect(edited.status).toBe('published');
  });

  it("lists the viewer's own drafts, the last changed first, in pages of 5; 401 without a session", async () => {
    const writer = await signUpUser(t.app);
    const titles = Array.from({ length: 6 }, (_, index) => `Draft ${index}`);
    const ids: string[] = [];
    for (const title of titles) {
      const response = await send(t.app, 'POST', '/api/blogs', writer, { title, blog: 'x', status: 'draft' });
      ids.push(response.json<Blog>().id);
    }
    await send(t.app, 'POST', '/api/blogs', writer, { title: 'Published one', blog: 'x' });
    // Touching the first draft moves it to the top.
    await send(t.app, 'PATCH', `/api/blogs/${ids[0]}`, writer, { title: 'Draft 0 again', blog: 'x' });

    const first = (await get(t.app, '/api/drafts?page=1', writer)).json<BlogPage>();
    expect(first.items.map((item) => item.title)).toEqual(['Draft 0 again', 'Draft 5', 'Draft 4', 'Draft 3', 'Draft 2']);
    expect(first.hasMore).toBe(true);
    const second = (await get(t.app, '/api/drafts?page=2', writer)).json<BlogPage>();
    expect(second.items.map((item) => item.title)).toEqual(['Draft 1']);
    expect(second.hasMore).toBe(false);
    expect(second.items.every((item) => item.status === 'draft' && item.userId === writer.id)).toBe(true);

    const strangers = (await get(t.app, '/api/drafts', stranger)).json<BlogPage>();
    expect(strangers.items.some((item) => ids.includes(item.id))).toBe(false);
    const anonymous = await get(t.app, '/api/drafts');
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('drafts and the response cache', () => {
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' });
  const { owner } = useSignedUpUsers(t, ['owner']);

  it('drops cached lists, feeds and the blog when a draft is published, and when a blog becomes a draft', async () => {
    const draft = (await send(t.app, 'POST', '/api/blogs', owner, { title: 'Cached draft', blog: 'x', status: 'draft' })).json<Blog>();
    const urls = ['/api/blogs?page=1', '/rss.xml', '/sitemap.xml'];
    for (const url of urls) {
      await get(t.app, url);
      const again = await get(t.app, url);
      expect(again.headers['x-cache'], url).toBe('hit');
      expect(mentions(again.body, draft), url).toBe(false);
    }
    // A 404 is never stored, so the draft's own URL is no stale answer.
    expect((await get(t.app, `/api/blogs/${draft.id}`)).statusCode).toBe(404);

    await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, owner, { title: 'Cached draft', blog: 'x', status: 'published' });
    for (const url of urls) expect(mentions((await get(t.app, url)).body, draft), url).toBe(true);
    await get(t.app, `/api/blogs/${draft.id}`);
    expect((await get(t.app, `/api/blogs/${draft.id}`)).headers['x-cache']).toBe('hit');

    await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, owner, { title: 'Cached draft', blog: 'x', status: 'draft' });
    expect((await get(t.app, `/api/blogs/${draft.id}`)).statusCode).toBe(404);
    for (const url of urls) expect(mentions((await get(t.app, url)).body, draft), url).toBe(false);
  });

  it('keeps cached answers when a draft is saved as a draft (autosave), which no reader can see', async () => {
    const published = (await send(t.app, 'POST', '/api/blogs', owner, { title: 'Already public', blog: 'x' })).json<Blog>();
    // Its event's follow-ups (the caches' own drop among them) are done before anything is cached.
    await t.settled();
    await feedDated(t.app);
    const urls = ['/api/blogs?page=1', '/rss.xml', `/api/blogs/${published.id}`];
    for (const url of urls) await get(t.app, url);
    const draft = (await send(t.app, 'POST', '/api/blogs', owner, { title: 'Typing', blog: 'a', status: 'draft' })).json<Blog>();
    expect((await send(t.app, 'PATCH', `/api/blogs/${draft.id}`, owner, { title: 'Typing', blog: 'ab' })).statusCode).toBe(200);
    for (const url of urls) expect((await get(t.app, url)).headers['x-cache'], url).toBe('hit');
    // A public blog's edit still clears them.
    await send(t.app, 'PATCH', `/api/blogs/${published.id}`, owner, { title: 'Already public', blog: 'y' });
    for (const url of urls) expect((await get(t.app, url)).headers['x-cache'], url).toBe('miss');
  });

  // Issue 57: "was public" is the one rule (`isPublicBlog`), not `status = 'published'` alone.
  it('keeps cached answers when a blog a moderator hid is made a draft: readers saw it neither before nor after', async () => {
    const hidden = (await send(t.app, 'POST', '/api/blogs', owner, { title: 'Hidden then drafted', blog: 'x' })).json<Blog>();
    await t.database.db.updateTable('blogs').set({ hidden_at: new Date() }).where('id', '=', hidden.id).execute();
    await t.settled();
    await feedDated(t.app);
    const urls = ['/api/blogs?page=1', '/rss.xml', '/sitemap.xml'];
    for (const url of urls) {
      await get(t.app, url);
      expect((await get(t.app, url)).headers['x-cache'], url).toBe('hit');
    }
    const drafted = await send(t.app, 'PATCH', `/api/blogs/${hidden.id}`, owner, { title: 'Hidden then drafted', blog: 'y', status: 'draft' });
    expect(drafted.statusCode, drafted.body).toBe(200);
    for (const url of urls) expect((await get(t.app, url)).headers['x-cache'], url).toBe('hit');
  });
});

describe('public queries with drafts among 10,000 blogs', () => {
  const t = useTestApp();
  const { author } = useSignedUpUsers(t, ['author']);

  beforeAll(async () => {
    // One blog in five is a draft.
    await sql`
      insert into blogs (user_id, title, body, status, upvotes, created_at)
      select ${author.id}, 'Blog ' || n || case when n % 50 in (0, 1) then ' rare' else '' end, 'Text', case when n % 5 = 0 then 'draft' else 'published' end,
             n % 7, now() - n * interval '1 minute'
      from generate_series(1, 10000) as n
    `.execute(t.database.db);
    await sql`analyze blogs`.execute(t.database.db);
    // Index-only scans need the visibility map (kept by autovacuum in production); as in
    // feeds.test.ts, vacuum until it covers the table (Postgres 15's first pass may leave it empty).
    expect(await vacuumBlogsUntilVisible(t.database.db)).toBe(true);
  });

  const plan = (query: Expression<unknown>) => explain(t.database.db, query);

  it('pages the home list on its index, never scanning or sorting the table', async () => {
    const text = await plan(selectPageIds(t.database.db, 'top', { offset: 2_000, limit: 6 }));
    expect(text).toMatch(/Index Only Scan using blogs_home_order_idx/);
    expect(text).not.toMatch(/Seq Scan on blogs/);
  });

  it('reads the feeds and the sitemap from their indexes', async () => {
    expect(await plan(newestBlogs(t.database.db, 20))).toMatch(/Index Scan using blogs_newest_idx/);
    const author20 = await plan(authorWithNewestBlogs(t.database.db, author.id, 20));
    expect(author20).toMatch(/Index Scan using blogs_(user_)?newest_idx/);
    expect(author20).not.toMatch(/Seq Scan on blogs/);
    expect(await plan(blogsById(t.database.db, { limit: 10_000 }))).toMatch(/Index Only Scan using blogs_sitemap_idx/);
    expect(await plan(sitemapParts(1_000))).toMatch(/Index Only Scan using blogs_sitemap_idx/);
  });

  it('searches titles through the GIN index', async () => {
    const text = await t.database.db.transaction().execute(async (trx) => {
      await preferTitleIndex(trx);
      const explained = await searchBlogRows(trx, { words: ['rare'], viewerId: null, limit: 5, offset: 0 }).explain();
      return explained.map((row) => Object.values(row).join(' ')).join('\n');
    });
    expect(text).toContain('blogs_title_tsv_idx');
  });

  it('counts and lists only the published ones', async () => {
    const search = (await get(t.app, '/api/search?searchTerm=rare')).json<SearchPage>();
    // 'rare' titles: n % 50 = 0 (drafts, as multiples of 5) and n % 50 = 1 (published), 200 each.
    expect(search.total).toBe(200);
    expect(search.items.every((item) => item.status === 'published')).toBe(true);
    const sitemap = (await get(t.app, '/sitemap.xml')).body;
    expect(sitemap.match(/<url>/g)).toHaveLength(8_000 + 4);
  });
});
