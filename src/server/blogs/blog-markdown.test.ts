import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { blogSchema, searchPageSchema, type Blog } from '../../shared/blog-schema.js';
import { BLOG_MAX_LENGTH } from '../../shared/constants.js';
import { expectSafeHtml } from '../testing/safe-html.js';
import { createImageStorage } from '../storage/storage.js';
import { type TestApp, useTestApp } from '../testing/test-app.js';
import { signUpUser, type TestUser, useSignedUpUsers } from '../testing/test-users.js';
import { renderUnrenderedBlogs } from './blog-rendering.service.js';
import { multipart } from '../testing/multipart.js';
import * as rebuildExcerpts from '../db/migrations/2026-11-25-05-rebuild-excerpts.js';
import * as excerptsWithoutImageText from '../db/migrations/2026-12-08-03-excerpts-without-image-text.js';

async function writeBlog(t: TestApp, user: TestUser, blog: string, options: { id?: string; title?: string } = {}): Promise<Blog> {
  const body = await multipart({ title: options.title ?? 'Markdown post', blog });
  const response = await t.app.inject({
    method: options.id ? 'PATCH' : 'POST',
    url: options.id ? `/api/blogs/${options.id}` : '/api/blogs',
    payload: body.payload,
    headers: { ...body.headers, cookie: user.cookie, origin: t.config.publicUrl },
  });
  expect(response.statusCode, response.body).toBe(options.id ? 200 : 201);
  return blogSchema.parse(response.json());
}

async function readBlog(t: TestApp, id: string): Promise<Blog> {
  const response = await t.app.inject({ method: 'GET', url: `/api/blogs/${id}` });
  expect(response.statusCode, response.body).toBe(200);
  return blogSchema.parse(response.json());
}

/** A logger that keeps what it is told, for the backfill's progress lines. */
function recordingLog() {
  const lines: Array<{ rendered: number; message: string }> = [];
  const log = { info: (fields: { rendered: number }, message: string) => lines.push({ ...fields, message }) };
  return { log: log as unknown as FastifyBaseLogger, lines };
}

describe('blogs in Markdown (API)', () => {
  const t = useTestApp();
  const { author } = useSignedUpUsers(t, ['author']);

  it('stores the Markdown as `blog` and returns its sanitised `html`, `excerpt` and `readingMinutes`', async () => {
    const source = '# Hello\n\nSome **bold** text and a [link](https://example.com).\n\n```js\nconst x = 1;\n```';
    const created = await writeBlog(t, author, source);
    expect(created.blog).toBe(source);
    expect(created.html).toBe(
      '<h2>Hello</h2>\n<p>Some <strong>bold</strong> text and a <a href="https://example.com" rel="nofollow ugc noopener">link</a>.</p>\n' +
        '<pre><code class="hljs language-js"><span class="hljs-keyword">const</span> x = <span class="hljs-number">1</span>;\n</code></pre>\n',
    );
    expect(created.excerpt).toBe('Hello. Some bold text and a link.');
    expect(created.readingMinutes).toBe(1);

    const read = await readBlog(t, created.id);
    expect({ html: read.html, excerpt: read.excerpt, readingMinutes: read.readingMinutes, blog: read.blog }).toEqual({
      html: created.html,
      excerpt: created.excerpt,
      readingMinutes: created.readingMinutes,
      blog: source,
    });
    const stored = await t.database.db.selectFrom('blogs').select(['html', 'excerpt', 'reading_minutes']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ html: created.html, excerpt: created.excerpt, reading_minutes: 1 });
  });

  it('keeps the line breaks of plain text written before Markdown', async () => {
    const created = await writeBlog(t, author, 'First line.\nSecond line.\n\nA new paragraph.');
    expect(created.html).toBe('<p>First line.<br />\nSecond line.</p>\n<p>A new paragraph.</p>\n');
  });

  it('renders again on update', async () => {
    const created = await writeBlog(t, author, 'Before.');
    const words = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const updated = await writeBlog(t, author, `~~Before~~ *after*. ${words}`, { id: created.id });
    expect(updated.html).toMatch(/^<p><del>Before<\/del> <em>after<\/em>\. word0 /);
    expect(updated.readingMinutes).toBe(3);
    expect(updated.excerpt.length).toBeLessThanOrEqual(200);
    expect(updated.excerpt).toMatch(/^Before after\. word0 word1 .* word\d+…$/);
    expect((await readBlog(t, created.id)).html).toBe(updated.html);
  });

  it('shows images stored by this site and turns any other image into a link', async () => {
    const created = await writeBlog(t, author, '![ours](/uploads/blogs/cat-1.webp)\n\n![theirs](https://tracker.example/pixel.gif)');
    expect(created.html).toBe(
      '<p><img src="/uploads/blogs/cat-1.webp" alt="ours" loading="lazy" /></p>\n' +
        '<p><a href="https://tracker.example/pixel.gif" rel="nofollow ugc noopener">theirs</a></p>\n',
    );
  });

  it('listings carry the excerpt and reading time, not the source nor its HTML: home pages and search results', async () => {
    const title = `Listed markdown ${Date.now()}`;
    const created = await writeBlog(t, author, '*listed*', { title });
    const home = (await t.app.inject({ method: 'GET', url: '/api/blogs?page=1' })).json<Record<string, unknown> & { items: Array<Record<string, unknown>> }>();
    const onHome = home.items.find((item) => item.id === created.id);
    expect(onHome).toMatchObject({ excerpt: 'listed', readingMinutes: 1 });
    expect(onHome).not.toHaveProperty('html');
    expect(onHome).not.toHaveProperty('blog');
    const search = (
      await t.app.inject({ method: 'GET', url: `/api/search?searchTerm=${encodeURIComponent(title)}` })
    ).json<{ items: Array<Record<string, unknown>> }>();
    const found = search.items.find((item) => item.id === created.id);
    expect(found).toMatchObject({ excerpt: 'listed', readingMinutes: 1 });
    expect(found).not.toHaveProperty('html');
    expect(found).not.toHaveProperty('blog');
  });

  it('a list still shows the excerpt of a blog the start-up backfill has not rendered yet', async () => {
    const title = `Unrendered ${Date.now()}`;
    const row = await t.database.db
      .insertInto('blogs')
      .values({ user_id: author.id, title, body: 'Old **plain** text', html: null, excerpt: null, reading_minutes: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const search = searchPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/search?searchTerm=${encodeURIComponent(title)}` })).json(),
    );
    expect(search.items.find((item) => item.id === row.id)).toMatchObject({ excerpt: 'Old plain text', readingMinutes: 1 });
  });

  const hostile: Array<[string, string]> = [
    ['script tags', '<script>alert(document.cookie)</script>\n\n<SCRIPT SRC=//evil.example/x.js></SCRIPT>'],
    ['event handlers in raw HTML', '<img src=x onerror=alert(1)>\n<a href="#" onclick="alert(1)">x</a>\n<div style="background:url(javascript:alert(1))">'],
    ['javascript: links', '[a](javascript:alert(1)) [b](JAVASCRIPT:alert(1)) [c](java&#x09;script:alert(1)) <javascript:alert(1)>\n\n[d]: javascript:alert(1)\n\n[e][d]'],
    ['data: links and images', '[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) ![b](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)'],
    ['raw iframes, objects and forms', '<iframe src="https://evil.example"></iframe><object data="x"></object><form action="https://evil.example"><input name=p></form>'],
    ['HTML comments', '<!-- hidden --> text <!-- <script>alert(1)</script> -->'],
    ['nested emphasis bombs', `${'*'.repeat(9_000)}a${'*'.repeat(9_000)}`],
    ['a page of [', '['.repeat(BLOG_MAX_LENGTH)],
    ['deeply nested lists', Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i)}- ${i}`).join('\n')],
    ['deeply nested quotes', `${'> '.repeat(9_000)}deep`],
  ];

  it.each(hostile)('%s are stored as written and rendered safely', async (_name, source) => {
    const started = performance.now();
    const created = await writeBlog(t, author, source);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(created.blog).toBe(source.trim());
    expectSafeHtml(created.html);
    expect(created.html).not.toMatch(/<(script|iframe|object|form|div|h1)\b/i);
    expect(created.excerpt.length).toBeLessThanOrEqual(200);
    expect(created.readingMinutes).toBeGreaterThanOrEqual(1);
  });
});

describe('rendering blogs written before Markdown (start-up backfill)', () => {
  const t = useTestApp();
  const { author } = useSignedUpUsers(t, ['author']);

  const insertUnrendered = (bodies: string[]) =>
    t.database.db
      .insertInto('blogs')
      .values(bodies.map((body, i) => ({ user_id: author.id, title: `Old blog ${i}`, body })))
      .returning('id')
      .execute();

  it('renders a row not yet backfilled when it is read', async () => {
    const [row] = await insertUnrendered(['Old *plain* text\nkept']);
    const read = await readBlog(t, row!.id);
    expect(read.html).toBe('<p>Old <em>plain</em> text<br />\nkept</p>\n');
    expect(read.excerpt).toBe('Old plain text kept');
    // Reading does not write: the row stays for the backfill.
    const stored = await t.database.db.selectFrom('blogs').select('html').where('id', '=', row!.id).executeTakeFirstOrThrow();
    expect(stored.html).toBeNull();
    await t.database.db.deleteFrom('blogs').where('id', '=', row!.id).execute();
  });

  it('fills html, excerpt and reading_minutes of every older row, in batches, once', async () => {
    const rows = await insertUnrendered(['# One', 'Two\nlines', '**Three**', 'Four', 'Five ~~x~~']);
    const rendered = await t.database.db.selectFrom('blogs').select('id').where('html', 'is not', null).execute();
    const { log, lines } = recordingLog();
    const storage = createImageStorage(t.config);

    expect(await renderUnrenderedBlogs({ db: t.database.db, storage, log }, 2)).toBe(5);
    expect(lines.map((line) => line.rendered)).toEqual([2, 4, 5, 5]);
    expect(lines.at(-1)?.message).toMatch(/rendered/);

    const stored = await t.database.db
      .selectFrom('blogs')
      .select(['id', 'html', 'excerpt', 'reading_minutes'])
      .where('id', 'in', rows.map((row) => row.id))
      .execute();
    const byId = new Map(stored.map((row) => [row.id, row]));
    expect(rows.map((row) => byId.get(row.id)?.html)).toEqual([
      '<h2>One</h2>\n',
      '<p>Two<br />\nlines</p>\n',
      '<p><strong>Three</strong></p>\n',
      '<p>Four</p>\n',
      '<p>Five <del>x</del></p>\n',
    ]);
    expect(rows.map((row) => byId.get(row.id)?.excerpt)).toEqual(['One.', 'Two lines', 'Three', 'Four', 'Five x']);
    expect(stored.every((row) => row.reading_minutes === 1)).toBe(true);

    // Rows rendered on write were left alone, and a second run has nothing to do.
    const again = recordingLog();
    expect(await renderUnrenderedBlogs({ db: t.database.db, storage, log: again.log }, 2)).toBe(0);
    expect(again.lines).toEqual([]);
    const stillRendered = await t.database.db.selectFrom('blogs').select('id').where('html', 'is not', null).execute();
    expect(stillRendered.length).toBe(rendered.length + rows.length);
  });
});

describe('excerpts made again for existing blogs', () => {
  const t = useTestApp();
  const { author } = useSignedUpUsers(t, ['author']);

  it('the migration clears the old excerpts and the start-up backfill makes them again, keeping the HTML', async () => {
    const body = '## Why bees\n\nKeeping bees in a city garden:\n\n- a hive\n- a few neighbours who like honey\n\nThe bees do most of the work';
    const [row] = await t.database.db
      .insertInto('blogs')
      .values({
        user_id: author.id,
        title: 'Bees',
        body,
        // As a save before the change stored it: blocks run together, and an HTML only a save makes.
        html: '<h2>Why bees</h2><p>kept as stored</p>',
        excerpt: 'Why bees Keeping bees in a city garden: a hive a few neighbours who like honey The bees do most of the work',
        reading_minutes: 1,
      })
      .returning('id')
      .execute();

    // The migration ran when the test database was made; run it again over this row.
    await rebuildExcerpts.down(t.database.db);
    await rebuildExcerpts.up(t.database.db);
    const cleared = await t.database.db.selectFrom('blogs').select(['excerpt', 'html']).where('id', '=', row!.id).executeTakeFirstOrThrow();
    expect(cleared).toEqual({ excerpt: null, html: '<h2>Why bees</h2><p>kept as stored</p>' });
    // Read before the backfill ran: the excerpt is made from the source, the stored HTML is kept.
    const read = await readBlog(t, row!.id);
    expect(read.excerpt).toBe('Why bees. Keeping bees in a city garden: a hive; a few neighbours who like honey. The bees do most of the work');
    expect(read.html).toBe('<h2>Why bees</h2><p>kept as stored</p>');

    const { log } = recordingLog();
    const storage = createImageStorage(t.config);
    expect(await renderUnrenderedBlogs({ db: t.database.db, storage, log })).toBeGreaterThanOrEqual(1);
    const rebuilt = await t.database.db.selectFrom('blogs').select(['excerpt', 'html']).where('id', '=', row!.id).executeTakeFirstOrThrow();
    expect(rebuilt).toEqual({
      excerpt: 'Why bees. Keeping bees in a city garden: a hive; a few neighbours who like honey. The bees do most of the work',
      html: '<h2>Why bees</h2><p>kept as stored</p>',
    });
    expect(await renderUnrenderedBlogs({ db: t.database.db, storage, log })).toBe(0);
  });
});

describe("images' descriptions in excerpts and feeds (issue 58)", () => {
  const t = useTestApp();
  const { author } = useSignedUpUsers(t, ['author']);
  const source = 'The harbour gate stays open. ![chart](/uploads/blogs/chart-1.webp) It is never locked at night.';
  const expected = 'The harbour gate stays open. It is never locked at night.';

  it("a card's excerpt and the three feeds' summaries leave the description out; the page keeps it", async () => {
    const created = await writeBlog(t, author, source, { title: 'The gate' });
    expect(created.excerpt).toBe(expected);
    expect(created.html).toContain('alt="chart"');
    const home = (await t.app.inject({ method: 'GET', url: '/api/blogs?page=1' })).json<{ items: Array<{ id: string; excerpt: string }> }>();
    expect(home.items.find((item) => item.id === created.id)?.excerpt).toBe(expected);

    const item = (xml: string, tag: string) => new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`).exec(xml.slice(xml.indexOf('The gate')))?.[1];
    const rss = (await t.app.inject({ method: 'GET', url: '/rss.xml' })).body;
    expect(item(rss, 'description')).toBe(expected);
    const atom = (await t.app.inject({ method: 'GET', url: '/atom.xml' })).body;
    expect(item(atom, 'summary')).toBe(expected);
    const json = (await t.app.inject({ method: 'GET', url: '/feed.json' })).json() as { items: Array<{ title: string; summary: string; content_html: string }> };
    const entry = json.items.find((each) => each.title === 'The gate')!;
    expect(entry.summary).toBe(expected);
    // The whole text a feed carries is the page's: the image and its description stay there.
    expect(entry.content_html).toContain('alt="chart"');
  });

  it('the migration clears the excerpts of blogs with images, and the start-up backfill makes them again', async () => {
    const rows = await t.database.db
      .insertInto('blogs')
      .values([
        // As a save before the change stored it: the description inside the excerpt.
        { user_id: author.id, title: 'Old gate', body: source, html: '<p>kept as stored</p>', excerpt: 'The harbour gate stays open. chart It is never locked at night.', reading_minutes: 1 },
        { user_id: author.id, title: 'No image', body: 'Only words here.', html: '<p>Only words here.</p>', excerpt: 'Only words here.', reading_minutes: 1 },
      ])
      .returning('id')
      .execute();
    const excerpts = async () =>
      Object.fromEntries((await t.database.db.selectFrom('blogs').select(['id', 'excerpt', 'html']).where('id', 'in', rows.map((row) => row.id)).execute()).map((row) => [row.id, [row.excerpt, row.html]]));

    // The migration ran when the test database was made; run it again over these rows.
    await excerptsWithoutImageText.up(t.database.db);
    expect(await excerpts()).toEqual({ [rows[0]!.id]: [null, '<p>kept as stored</p>'], [rows[1]!.id]: ['Only words here.', '<p>Only words here.</p>'] });
    expect((await readBlog(t, rows[0]!.id)).excerpt).toBe(expected);

    await renderUnrenderedBlogs({ db: t.database.db, storage: createImageStorage(t.config), log: recordingLog().log });
    expect(await excerpts()).toEqual({ [rows[0]!.id]: [expected, '<p>kept as stored</p>'], [rows[1]!.id]: ['Only words here.', '<p>Only words here.</p>'] });
  });
});

describe('blogs in Markdown with images in S3', () => {
  // Nothing is uploaded here, so the endpoint is never called; only the public URL matters.
  const t = useTestApp({ S3_BUCKET: 'blog-images', S3_ENDPOINT: 'http://127.0.0.1:9', S3_PUBLIC_URL: 'https://cdn.example.com/img' });

  it('shows images from the configured public URL only', async () => {
    const author = await signUpUser(t.app);
    const created = await writeBlog(t, author, '![cdn](https://cdn.example.com/img/blogs/a.webp) ![local](/uploads/blogs/a.webp)');
    expect(created.html).toBe(
      '<p><img src="https://cdn.example.com/img/blogs/a.webp" alt="cdn" loading="lazy" /> ' +
        '<a href="/uploads/blogs/a.webp" rel="nofollow ugc noopener">local</a></p>\n',
    );
  });
});
