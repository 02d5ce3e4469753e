import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { blogPageSchema, blogSchema, type BlogPage } from '../../shared/blog-schema.js';
import { tagMessages, tagsPageSchema, tagSuggestionsSchema, TAGS_PAGE_SIZE } from '../../shared/tag-schema.js';
import { selectPageIds } from '../blogs/blogs.repository.js';
import { explain } from '../testing/query-plans.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';
import { blogWrites } from '../testing/blog-writes.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');

/** A tag no other test (nor run) uses. */
const uniqueTag = (stem: string) => `${stem}-${Math.random().toString(36).slice(2, 8)}`;

describe('tags', () => {
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL, RATE_LIMIT_SCALE: '100' });
  const { moderator, author, other } = useSignedUpUsers(t, ['moderator', 'author', 'other'], { moderator: { email: MODERATOR_EMAIL } });
  const writes = blogWrites(t, moderator);

  const get = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });
  const listOf = async (tag: string, query = '') => {
    const response = await get(`/api/blogs?tag=${encodeURIComponent(tag)}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return blogPageSchema.parse(response.json());
  };
  const titles = (page: BlogPage) => page.items.map((blog) => blog.title);
  const tagCount = async (tag: string) => (await t.database.db.selectFrom('tag_counts').select('blogs').where('tag', '=', tag).executeTakeFirst())?.blogs ?? 0;

  it("keeps up to 5 tags, made lowercase, in the writer's order, repeats dropped, separated by commas or spaces", async () => {
    const created = await writes.create(author, { title: 'Tagged', tags: ' React, web-dev  react,Café,ÉTÉ-2024 ' });
    expect(created.tags).toEqual(['react', 'web-dev', 'café', 'été-2024']);
    const read = blogSchema.parse((await get(`/api/blogs/${created.id}`)).json());
    expect(read.tags).toEqual(['react', 'web-dev', 'café', 'été-2024']);
    // Lists carry them too.
    expect((await listOf('react')).items.find((blog) => blog.id === created.id)?.tags).toEqual(read.tags);
    // No field, or an empty one: no tags.
    expect((await writes.create(author, { title: 'Untagged' })).tags).toEqual([]);
    expect((await writes.create(author, { title: 'Blank tags', tags: ' , ' })).tags).toEqual([]);
  });

  it('refuses a sixth tag and anything that is not lowercase words joined by hyphens, and creates nothing', async () => {
    const before = await t.database.db.selectFrom('blogs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const refusals: Array<[string, string]> = [
      ['a b c d e f', tagMessages.tooMany],
      ['web_dev', tagMessages.badTag('web_dev')],
      ['-leading', tagMessages.badTag('-leading')],
      ['double--hyphen', tagMessages.badTag('double--hyphen')],
      ['trailing-', tagMessages.badTag('trailing-')],
      ['x'.repeat(31), tagMessages.badTag('x'.repeat(31))],
      ['<script>', tagMessages.badTag('<script>')],
      ['c++', tagMessages.badTag('c++')],
      ['🍎', tagMessages.badTag('🍎')],
    ];
    for (const [tags, message] of refusals) {
      const response = await writes.send('POST', '/api/blogs', author, { title: 'Refused', blog: 'Text.', tags });
      expect(response.statusCode, tags).toBe(400);
      expect(response.json<{ message: string }>().message, tags).toBe(message);
    }
    const tooLong = await writes.send('POST', '/api/blogs', author, { title: 'Refused', blog: 'Text.', tags: 'a,'.repeat(1000) });
    expect(tooLong.statusCode).toBe(400);
    const after = await t.database.db.selectFrom('blogs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // Exactly 5, and 30 characters, are fine.
    expect((await writes.create(author, { title: 'Five', tags: `a b c d ${'x'.repeat(30)}` })).tags).toHaveLength(5);
  });

  it('keeps the tags on an edit without the field, replaces them with it, and removes them with an empty one', async () => {
    const blog = await writes.create(author, { title: 'Editable', tags: 'one, two' });
    expect((await writes.edit(author, blog.id, { title: 'Edited title' })).tags).toEqual(['one', 'two']);
    expect((await writes.edit(author, blog.id, { tags: 'three two' })).tags).toEqual(['three', 'two']);
    expect((await writes.edit(author, blog.id, { tags: '' })).tags).toEqual([]);
    const refused = await writes.send('PATCH', `/api/blogs/${blog.id}`, author, { title: 'x', blog: 'y', tags: 'Not_a_tag' });
    expect(refused.statusCode).toBe(400);
  });

  it("lists one tag's public blogs in each order, 5 a page, knowing the last page", async () => {
    const tag = uniqueTag('orchard');
    const base = Date.parse('2026-03-01T00:00:00Z');
    // Seven tagged blogs with ratings and dates of their own, beside untagged ones.
    const rows = await t.database.db
      .insertInto('blogs')
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          user_id: author.id,
          title: `Orchard ${i}`,
          body: 'Apples.',
          tags: [tag, 'fruit'],
          upvotes: [3, 0, 5, 1, 5, 2, 0][i]!,
          created_at: new Date(base + i * 3_600_000),
        })),
      )
      .returning(['id', 'title'])
      .execute();
    await t.database.db.insertInto('blogs').values({ user_id: author.id, title: 'Not in the orchard', body: 'x', tags: ['fruit'] }).execute();

    const top = [...(await listOf(tag)).items, ...(await listOf(tag, '&page=2')).items];
    expect(top.map((blog) => blog.title)).toEqual(['Orchard 4', 'Orchard 2', 'Orchard 0', 'Orchard 5', 'Orchard 3', 'Orchard 6', 'Orchard 1']);
    const newest = [...(await listOf(tag, '&sort=new')).items, ...(await listOf(tag, '&sort=new&page=2')).items];
    expect(newest.map((blog) => blog.title)).toEqual(['Orchard 6', 'Orchard 5', 'Orchard 4', 'Orchard 3', 'Orchard 2', 'Orchard 1', 'Orchard 0']);
    const hot = [...(await listOf(tag, '&sort=hot')).items, ...(await listOf(tag, '&sort=hot&page=2')).items];
    expect(new Set(hot.map((blog) => blog.id))).toEqual(new Set(rows.map((row) => row.id)));

    const first = await listOf(tag);
    expect(first).toMatchObject({ page: 1, pageSize: 5, hasMore: true });
    expect(first.items).toHaveLength(5);
    expect(await listOf(tag, '&page=2')).toMatchObject({ page: 2, hasMore: false });
    // The tag as typed in any case is the same tag.
    expect(titles(await listOf(tag.toUpperCase()))).toEqual(titles(first));

    expect(await listOf(uniqueTag('unused'))).toEqual({ items: [], page: 1, pageSize: 5, hasMore: false });
    for (const bad of ['web_dev', '<b>', '', 'a--b', 'x'.repeat(31)]) {
      expect((await get(`/api/blogs?tag=${encodeURIComponent(bad)}`)).statusCode, bad).toBe(400);
    }
  });

  it("never counts nor shows drafts, hidden blogs, suspended authors' blogs or deleted ones", async () => {
    const tag = uniqueTag('secret');
    const shown = await writes.create(author, { title: 'Shown', tags: tag });
    const draft = await writes.create(author, { title: 'Draft', tags: tag, status: 'draft' });
    const hidden = await writes.create(other, { title: 'Hidden', tags: tag });
    const suspendedAuthor = await signUpUser(t.app);
    await writes.create(suspendedAuthor, { title: 'Suspended', tags: tag });
    const deleted = await writes.create(author, { title: 'Deleted', tags: tag });
    expect(await tagCount(tag)).toBe(4);

    await writes.moderate({ action: 'hide', targetType: 'blog', targetId: hidden.id, reason: 'Testing.' });
    await writes.moderate({ action: 'suspend', userId: suspendedAuthor.id, reason: 'Testing.' });
    await writes.remove(author, deleted.id);

    expect(titles(await listOf(tag))).toEqual(['Shown']);
    expect(await tagCount(tag)).toBe(1);
    const suggestions = tagSuggestionsSchema.parse((await get(`/api/tag-suggestions?prefix=${tag}`)).json());
    expect(suggestions.items).toEqual([{ name: tag, blogs: 1 }]);
    const rss = (await get(`/rss.xml?tag=${tag}`)).body;
    expect(rss).toContain('<title>Shown</title>');
    for (const title of ['Draft', 'Hidden', 'Suspended', 'Deleted']) expect(rss).not.toContain(`<title>${title}</title>`);

    // Published, restored and unsuspended, they count again.
    await writes.edit(author, draft.id, { title: 'Draft', tags: tag, status: 'published' });
    await writes.moderate({ action: 'restore', targetType: 'blog', targetId: hidden.id, reason: 'Testing.' });
    await writes.moderate({ action: 'unsuspend', userId: suspendedAuthor.id, reason: 'Testing.' });
    expect(await tagCount(tag)).toBe(4);
    expect(titles(await listOf(tag, '&sort=new')).sort()).toEqual(['Draft', 'Hidden', 'Shown', 'Suspended']);
    // Only public blogs are ever counted: an only-draft tag does not exist for readers.
    const draftOnly = uniqueTag('draft-only');
    await writes.create(author, { title: 'Only a draft', tags: draftOnly, status: 'draft' });
    expect(await tagCount(draftOnly)).toBe(0);
    expect(tagSuggestionsSchema.parse((await get(`/api/tag-suggestions?prefix=${draftOnly}`)).json()).items).toEqual([]);
    expect(shown.tags).toEqual([tag]);
  });

  it('/api/tags lists the tags by number of public blogs, then by name, 100 a page', async () => {
    const response = await get('/api/tags');
    expect(response.statusCode).toBe(200);
    const page = tagsPageSchema.parse(response.json());
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(TAGS_PAGE_SIZE);
    for (let i = 1; i < page.items.length; i++) {
      const [before, item] = [page.items[i - 1]!, page.items[i]!];
      expect(before.blogs > item.blogs || (before.blogs === item.blogs && before.name < item.name), `${before.name} before ${item.name}`).toBe(true);
    }
    const fruit = page.items.find((tag) => tag.name === 'fruit');
    expect(fruit?.blogs).toBe(await tagCount('fruit'));

    // Past a hundred tags, a second page.
    await t.database.db
      .insertInto('blogs')
      .values(Array.from({ length: TAGS_PAGE_SIZE + 1 }, (_, i) => ({ user_id: other.id, title: `Many ${i}`, body: 'x', tags: [`many-${String(i).padStart(3, '0')}`] })))
      .execute();
    const total = (await t.database.db.selectFrom('tag_counts').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
    const first = tagsPageSchema.parse((await get('/api/tags')).json());
    expect(first.items).toHaveLength(TAGS_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    const second = tagsPageSchema.parse((await get('/api/tags?page=2')).json());
    expect(second.items).toHaveLength(total - TAGS_PAGE_SIZE);
    expect((await get('/api/tags?page=0')).statusCode).toBe(400);
  });

  it('suggests the most used tags starting with what is typed, in any case, at most 8, and nothing for input no tag starts with', async () => {
    const stem = uniqueTag('garden');
    await writes.create(author, { title: 'G1', tags: `${stem}-tools ${stem}-roses` });
    await writes.create(other, { title: 'G2', tags: `${stem}-roses` });
    await writes.create(other, { title: 'G3', tags: `${stem}-roses ${stem}-ponds` });
    const suggest = async (prefix: string) => {
      const response = await get(`/api/tag-suggestions?prefix=${encodeURIComponent(prefix)}`);
      expect(response.statusCode, response.body).toBe(200);
      return tagSuggestionsSchema.parse(response.json()).items;
    };
    expect(await suggest(stem)).toEqual([
      { name: `${stem}-roses`, blogs: 3 },
      { name: `${stem}-ponds`, blogs: 1 },
      { name: `${stem}-tools`, blogs: 1 },
    ]);
    expect(await suggest(`${stem.toUpperCase()}-T`)).toEqual([{ name: `${stem}-tools`, blogs: 1 }]);
    expect((await suggest('many-')).length).toBe(8);
    expect((await suggest('')).length).toBe(8);
    for (const hostile of ["'; drop table tag_counts; --", '%', '_', 'a%b', '\\', 'zz-no-tag-starts-so']) expect(await suggest(hostile), hostile).toEqual([]);
    expect((await get(`/api/tag-suggestions?prefix=${'x'.repeat(31)}`)).statusCode).toBe(400);
  });

  it("gives each tag its feeds (RSS, Atom, JSON Feed) with the tag's blogs, and every feed the blogs' tags", async () => {
    const tag = uniqueTag('feed');
    await writes.create(author, { title: 'Fed one', tags: `${tag} extra` });
    await writes.create(other, { title: 'Fed two', tags: tag });
    await writes.create(other, { title: 'Not fed', tags: 'elsewhere' });

    const rss = await get(`/rss.xml?tag=${tag}`);
    expect(rss.statusCode).toBe(200);
    expect(rss.headers['content-type']).toContain('application/rss+xml');
    expect(rss.body.match(/<item>/g)).toHaveLength(2);
    expect(rss.body).toContain(`<link>${TEST_PUBLIC_URL}/tag?name=${tag}</link>`);
    expect(rss.body).toContain(`href="${TEST_PUBLIC_URL}/rss.xml?tag=${tag}"`);
    expect(rss.body).toContain(`<category>${tag}</category>`);
    expect(rss.body).toContain('<category>extra</category>');
    expect(rss.body).not.toContain('Not fed');

    const atom = await get(`/atom.xml?tag=${tag}`);
    expect(atom.statusCode).toBe(200);
    expect(atom.body.match(/<entry>/g)).toHaveLength(2);
    expect(atom.body).toContain(`<category term="${tag}"/>`);
    const json = await get(`/feed.json?tag=${tag}`);
    const feed = json.json<{ items: Array<{ title: string; tags?: string[] }>; feed_url: string }>();
    expect(feed.feed_url).toBe(`${TEST_PUBLIC_URL}/feed.json?tag=${tag}`);
    expect(feed.items.map((item) => item.title).sort()).toEqual(['Fed one', 'Fed two']);
    expect(feed.items.find((item) => item.title === 'Fed one')?.tags).toEqual([tag, 'extra']);

    // The site's feed names every blog's tags too.
    expect((await get('/rss.xml')).body).toContain(`<category>${tag}</category>`);
    // A tag no blog carries yet: an empty feed. Not a tag, or a tag and an author at once: no feed.
    expect((await get(`/rss.xml?tag=${uniqueTag('empty')}`)).statusCode).toBe(200);
    for (const url of ['/rss.xml?tag=Bad_Tag', `/atom.xml?tag=${tag}&author=${author.id}`, '/feed.json?tag=a--b']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('moves the feeds’ change time when a public blog’s tags change, and not for a draft’s', async () => {
    const changedAt = async () => (await t.database.db.selectFrom('feeds_changed').select('changed_at').executeTakeFirstOrThrow()).changed_at.getTime();
    const blog = await writes.create(author, { title: 'Dated', tags: 'before' });
    const draft = await writes.create(author, { title: 'Dated draft', tags: 'before', status: 'draft' });
    const start = await changedAt();
    await t.database.db.updateTable('blogs').set({ tags: ['before'] }).where('id', '=', blog.id).execute();
    expect(await changedAt()).toBe(start);
    await t.database.db.updateTable('blogs').set({ tags: ['after'] }).where('id', '=', draft.id).execute();
    expect(await changedAt()).toBe(start);
    await t.database.db.updateTable('blogs').set({ tags: ['after'] }).where('id', '=', blog.id).execute();
    expect(await changedAt()).toBeGreaterThan(start);
  });

  it("lists each public tag's page in the sitemap, and /tags", async () => {
    const tag = uniqueTag('mapped');
    const hiddenTag = uniqueTag('unmapped');
    await writes.create(author, { title: 'Mapped', tags: tag });
    await writes.create(author, { title: 'Unmapped', tags: hiddenTag, status: 'draft' });
    const sitemap = (await get('/sitemap.xml')).body;
    expect(sitemap).toContain(`<loc>${TEST_PUBLIC_URL}/tag?name=${tag}</loc>`);
    expect(sitemap).toContain(`<loc>${TEST_PUBLIC_URL}/tags</loc>`);
    expect(sitemap).not.toContain(hiddenTag);
  });

  it("reads a tag's list through the GIN index of the tags", async () => {
    const plan = await t.database.db.transaction().execute(async (trx) => {
      // A test's table is small enough to read whole; the index must be what a large one uses.
      await sql`set local enable_seqscan = off`.execute(trx);
      return explain(trx, selectPageIds(trx, 'top', { offset: 0, limit: 6, tag: 'orchard-none' }));
    });
    expect(plan).toContain('blogs_tags_idx');
  });
});

describe('tags behind the response cache', () => {
  const t = useTestApp({ RESPONSE_CACHE_MB: '16', RATE_LIMIT_SCALE: '100' });
  const { author } = useSignedUpUsers(t, ['author']);
  const writes = blogWrites(t);

  const get = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });

  it("drops a tag's list, the tags and the suggestions on the writes that change them", async () => {
    const tag = uniqueTag('cached');
    const blog = await writes.create(author, { title: 'Cached one', tags: tag });
    // Its event's follow-ups (the caches' own drop among them) are done before anything is kept.
    await t.settled();
    const urls = [`/api/blogs?tag=${tag}`, '/api/tags', `/api/tag-suggestions?prefix=${tag}`, `/rss.xml?tag=${tag}`];
    for (const url of urls) {
      expect((await get(url)).headers['x-cache'], url).toBe('miss');
      expect((await get(url)).statusCode, url).toBe(200);
    }
    expect((await get(urls[0]!)).headers['x-cache']).toBe('hit');

    // Another blog with the tag: every one of them shows it.
    await writes.create(author, { title: 'Cached two', tags: tag });
    expect(blogPageSchema.parse((await get(urls[0]!)).json()).items.map((item) => item.title).sort()).toEqual(['Cached one', 'Cached two']);
    expect(tagsPageSchema.parse((await get(urls[1]!)).json()).items.find((item) => item.name === tag)?.blogs).toBe(2);
    expect(tagSuggestionsSchema.parse((await get(urls[2]!)).json()).items).toEqual([{ name: tag, blogs: 2 }]);
    expect((await get(urls[3]!)).body).toContain('Cached two');

    // An edit taking the tag off.
    await writes.edit(author, blog.id, { title: 'Cached one', tags: '' });
    expect(blogPageSchema.parse((await get(urls[0]!)).json()).items.map((item) => item.title)).toEqual(['Cached two']);
    expect(tagSuggestionsSchema.parse((await get(urls[2]!)).json()).items).toEqual([{ name: tag, blogs: 1 }]);
  });
});
