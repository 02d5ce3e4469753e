import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPageSchema, type SearchPage } from '../../shared/blog-schema.js';
import { SEARCH_COUNT_CAP, SEARCH_MAX_WORDS, SEARCH_TERM_MAX_LENGTH } from '../../shared/constants.js';
import { SEARCH_LIMIT, storedRateLimitKey } from '../rate-limit/rate-limit.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { countPublicMatches, withKeptCount } from '../testing/recount.js';
import { preferTitleIndex, searchBlogRows } from './search.repository.js';
import { searchWords } from './search-words.js';

describe('search', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;
  const ids: Record<string, string> = {};

  const insertBlogs = async (titles: string[], extra: { upvotes?: number; created_at?: Date } = {}) => {
    const rows = await t.database.db
      .insertInto('blogs')
      .values(titles.map((title) => ({ user_id: author.id, title, body: `About ${title}.`, ...extra })))
      .returning(['id', 'title'])
      .execute();
    for (const row of rows) ids[row.title] = row.id;
    return rows.map((row) => row.id);
  };

  const search = async (searchTerm: string, options: { page?: number; user?: TestUser } = {}) => {
    const query = new URLSearchParams({ searchTerm });
    if (options.page !== undefined) query.set('page', String(options.page));
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/search?${query}`,
      headers: options.user ? { cookie: options.user.cookie } : {},
      remoteAddress: randomIp(),
    });
    return response;
  };
  const searchPage = async (searchTerm: string, options: { page?: number; user?: TestUser } = {}) => {
    const response = await search(searchTerm, options);
    expect(response.statusCode, `${searchTerm}: ${response.body}`).toBe(200);
    return searchPageSchema.parse(response.json());
  };
  const titles = (page: SearchPage) => page.items.map((blog) => blog.title);

  beforeAll(async () => {
    t = await createTestApp();
    [author, reader] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    await insertBlogs([
      'Apple pie for beginners',
      'Banana bread every morning',
      'Cherry tart',
      'Running in the rain',
      'Why runners love mornings',
      'Table manners',
      'Café culture in Paris',
    ]);
    await insertBlogs(['Apple and banana smoothie']);
  });
  afterAll(() => t.close());

  it('joins the words with OR: a title with any of them matches', async () => {
    const page = await searchPage('apple banana');
    expect(titles(page).sort()).toEqual(['Apple and banana smoothie', 'Apple pie for beginners', 'Banana bread every morning']);
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 5, hasMore: false });
  });

  it('ranks the best match first', async () => {
    const page = await searchPage('apple banana');
    expect(page.items[0]!.title).toBe('Apple and banana smoothie');
  });

  it('matches word forms (English stemming) and ignores case', async () => {
    expect(titles(await searchPage('runs'))).toEqual(['Running in the rain']);
    expect(titles(await searchPage('MORNING')).sort()).toEqual(['Banana bread every morning', 'Why runners love mornings']);
    expect(titles(await searchPage('tarts'))).toEqual(['Cherry tart']);
    expect(titles(await searchPage('café'))).toEqual(['Café culture in Paris']);
  });

  it('answers an empty page when nothing matches', async () => {
    expect(await searchPage('zeppelin')).toEqual({ items: [], total: 0, page: 1, pageSize: 5, hasMore: false });
  });

  it('finds nothing for an empty, blank, stop-word-only or punctuation-only term', async () => {
    for (const term of ['', '   ', '\t', 'the and of', '&|!():*', '!!!', '🍎🍌']) {
      expect(await searchPage(term), JSON.stringify(term)).toEqual({ items: [], total: 0, page: 1, pageSize: 5, hasMore: false });
    }
    const none = await t.app.inject({ method: 'GET', url: '/api/search' });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ items: [], total: 0 });
  });

  it('is safe for any input: operators, quotes, SQL, emoji, long terms never fail', async () => {
    const hostile = [
      "'",
      '"',
      "apple'",
      "it's",
      '\\',
      "\\'",
      'apple & !banana',
      'apple | banana',
      '!apple',
      '(apple',
      'apple)',
      'app:*',
      'apple <-> banana',
      'apple <2> pie',
      "'; drop table blogs; --",
      "' or 1=1 --",
      '$1',
      '%',
      '_',
      'NULL',
      '🍎 apple 🍌',
      '👨‍👩‍👧‍👦',
      '<img src=x onerror=alert(1)>',
      'a'.repeat(SEARCH_TERM_MAX_LENGTH),
      'é'.repeat(SEARCH_TERM_MAX_LENGTH),
      '東'.repeat(SEARCH_TERM_MAX_LENGTH),
      'apple '.repeat(SEARCH_TERM_MAX_LENGTH / 6),
      Array.from({ length: SEARCH_MAX_WORDS }, (_, i) => `w${i}`).join(' '),
      '🍎'.repeat(SEARCH_TERM_MAX_LENGTH / 2),
      ' '.repeat(SEARCH_TERM_MAX_LENGTH),
    ];
    for (const term of hostile) {
      const response = await search(term);
      expect(response.statusCode, `${JSON.stringify(term.slice(0, 40))}: ${response.body}`).toBe(200);
      searchPageSchema.parse(response.json());
    }
    // A NUL is bad input anywhere (http/bad-characters.ts): a 400 with the error shape, not a search.
    const nul = await search('\u0000apple');
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ error: 'BAD_REQUEST' });
    // Operators are just separators: no AND, NOT or prefix match sneaks in.
    expect(titles(await searchPage('apple & !banana')).sort()).toEqual(titles(await searchPage('apple banana')).sort());
    expect(titles(await searchPage('app:*'))).toEqual([]);
    expect(titles(await searchPage("'; drop table blogs; --"))).toEqual(['Table manners']);
    expect(titles(await searchPage('🍎 apple 🍌')).sort()).toEqual(['Apple and banana smoothie', 'Apple pie for beginners']);
    const count = await t.database.db.selectFrom('blogs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBeGreaterThanOrEqual(8);
  });

  it('bounds the cost of one search: over 1,000 characters or 16 words is a clear 400', async () => {
    const long = await search('a'.repeat(SEARCH_TERM_MAX_LENGTH + 1));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ error: 'BAD_REQUEST', message: 'The search term is too long: at most 1000 characters.' });
    // The attack as reported: a 64-word search.
    const manyWords = await search(Array.from({ length: 64 }, (_, i) => `${String.fromCharCode(97 + Math.floor(i / 10))}${i % 10}`).join(' '));
    expect(manyWords.statusCode).toBe(400);
    expect(manyWords.json()).toEqual({ error: 'BAD_REQUEST', message: 'The search term has too many words: at most 16.' });
    expect((await search(Array.from({ length: SEARCH_MAX_WORDS + 1 }, (_, i) => `w${i}`).join(' '))).statusCode).toBe(400);
    // Repeats count once.
    expect((await search('apple '.repeat(30))).statusCode).toBe(200);
  });

  it('answers 429 with Retry-After to an address that floods, while other readers are served', async () => {
    const flooder = randomIp();
    const max = SEARCH_LIMIT.rule.max;
    const burst = await Promise.all(
      Array.from({ length: max + 20 }, () => t.app.inject({ method: 'GET', url: '/api/search?searchTerm=apple', remoteAddress: flooder })),
    );
    const statuses = burst.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const refused = burst.find((response) => response.statusCode === 429)!;
    expect(refused.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: 'You are searching very fast. Please wait a moment and try again.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The shared counter gets the served searches (in a batch, a fraction of a second later);
    // once over the limit the address is refused without adding to it.
    const counter = async (address: string) =>
      (await t.database.db.selectFrom('rate_limits').select('count').where('key', '=', storedRateLimitKey(`search:${address}`, t.config.authSecret)).executeTakeFirst())?.count;
    await expect.poll(() => counter(flooder)).toBe(max);
    expect((await t.app.inject({ method: 'GET', url: '/api/search?searchTerm=apple', remoteAddress: flooder })).statusCode).toBe(429);
    // Another reader is served, and their count reaching the database shows a batch went by since.
    const otherAddress = randomIp();
    const other = await t.app.inject({ method: 'GET', url: '/api/search?searchTerm=apple', remoteAddress: otherAddress });
    expect(other.statusCode).toBe(200);
    await expect.poll(() => counter(otherAddress)).toBe(1);
    expect(await counter(flooder)).toBe(max);
  });

  it('answers a bad page with a 400', async () => {
    for (const page of ['0', '-1', 'abc', '1.5']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/search?searchTerm=apple&page=${page}` });
      expect(response.statusCode, page).toBe(400);
    }
    const twice = await t.app.inject({ method: 'GET', url: '/api/search?searchTerm=apple&searchTerm=banana' });
    expect(twice.statusCode).toBeLessThan(500);
  });

  it('pages 5 at a time, best rank then rating then newest, with the total and whether more follow', async () => {
    const base = Date.parse('2026-01-01T00:00:00Z');
    const gardening = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        insertBlogs([`Gardening tip ${i}`], { upvotes: i % 3, created_at: new Date(base + i * 60_000) }).then(([id]) => id!),
      ),
    );
    const pages = [await searchPage('gardening', { page: 1 }), await searchPage('gardening', { page: 2 }), await searchPage('gardening', { page: 3 })];
    expect(pages.map((page) => page.items.length)).toEqual([5, 5, 2]);
    expect(pages.map((page) => page.total)).toEqual([12, 12, 12]);
    expect(pages.map((page) => page.hasMore)).toEqual([true, true, false]);
    expect(pages.map((page) => page.page)).toEqual([1, 2, 3]);
    const seen = pages.flatMap((page) => page.items.map((blog) => blog.id));
    expect(new Set(seen).size).toBe(12);
    expect([...seen].sort()).toEqual([...gardening].sort());
    // Equal rank: the higher rating first, then the newer.
    const order = pages.flatMap((page) => page.items.map((blog) => [blog.rating, Date.parse(blog.createdAt)] as const));
    for (let i = 1; i < order.length; i++) {
      const [ratingBefore, createdBefore] = order[i - 1]!;
      const [rating, created] = order[i]!;
      expect(ratingBefore > rating || (ratingBefore === rating && createdBefore > created), `position ${i}`).toBe(true);
    }

    const past = await searchPage('gardening', { page: 4 });
    expect(past).toEqual({ items: [], total: 12, page: 4, pageSize: 5, hasMore: false });
  });

  it('knows the last page also when it is exactly full', async () => {
    await insertBlogs(Array.from({ length: 10 }, (_, i) => `Knitting pattern ${i}`));
    const second = await searchPage('knitting', { page: 2 });
    expect(second.items).toHaveLength(5);
    expect(second).toMatchObject({ total: 10, hasMore: false });
  });

  it('ranks no more than SEARCH_COUNT_CAP matches: beyond it the total stays exact and pages come highest rated first', async () => {
    const base = Date.parse('2025-01-01T00:00:00Z');
    const count = SEARCH_COUNT_CAP + 7;
    await t.database.db
      .insertInto('blogs')
      .values(
        Array.from({ length: count }, (_, i) => ({
          user_id: author.id,
          title: `Lantern walk ${i}`,
          body: 'A walk.',
          upvotes: (i * 7919) % 13,
          created_at: new Date(base + i * 60_000),
        })),
      )
      .execute();
    const first = await searchPage('lantern');
    expect(first).toMatchObject({ total: count, hasMore: true });
    expect(first.items).toHaveLength(5);
    const best = await t.database.db
      .selectFrom('blogs')
      .select('id')
      .where('title', 'like', 'Lantern walk %')
      .orderBy('rating', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(10)
      .execute();
    expect([...first.items, ...(await searchPage('lantern', { page: 2 })).items].map((blog) => blog.id)).toEqual(best.map(({ id }) => id));
    // Paging goes on to the real end.
    const last = await searchPage('lantern', { page: Math.ceil(count / 5) });
    expect(last).toMatchObject({ total: count, hasMore: false });
    expect(last.items).toHaveLength(count % 5 || 5);
    expect((await searchPage('lantern', { page: Math.ceil(count / 5) + 1 })).items).toEqual([]);
  });

  it("gives each result the caller's own vote as myVote, and the blog's fields", async () => {
    const voted = ids['Cherry tart']!;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/blogs/${voted}/vote`,
      headers: { origin: TEST_PUBLIC_URL, cookie: reader.cookie },
      payload: { direction: 'down' },
    });
    expect(put.statusCode).toBe(200);
    expect((await searchPage('cherry', { user: reader })).items[0]).toMatchObject({ id: voted, myVote: 'down', downvotes: 1, rating: -1 });
    expect((await searchPage('cherry', { user: author })).items[0]!.myVote).toBeNull();
    expect((await search('cherry', { user: reader })).headers['cache-control']).toBe('private, no-cache');
    const anonymous = (await searchPage('cherry')).items[0]!;
    expect(anonymous).toMatchObject({
      id: voted,
      title: 'Cherry tart',
      excerpt: 'About Cherry tart.',
      author: author.email,
      userId: author.id,
      imageUrl: null,
      upvotes: 0,
      downvotes: 1,
      rating: -1,
      myVote: null,
    });
    expect(anonymous.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('states the exact total: one lexeme from the kept per-word count, several through the index', async () => {
    const fresh = (term: string) => countPublicMatches(t.database.db, 'title_tsv', term);
    // One lexeme: a word, its other forms, with stop words around it.
    expect((await searchPage('apple')).total).toBe(await fresh('apple'));
    expect((await searchPage('apple')).total).toBe(2);
    expect((await searchPage('Apples')).total).toBe(2);
    expect((await searchPage('the apple of')).total).toBe(2);
    expect((await searchPage('run runs running')).total).toBe(await fresh('run'));
    // Only stop words: nothing, as before.
    expect((await searchPage('the')).total).toBe(0);
    expect((await searchPage('the and of')).total).toBe(0);
    // Several lexemes: the union (the smoothie has both words and counts once, not twice).
    expect((await searchPage('apple banana')).total).toBe(await fresh('apple or banana'));
    expect((await searchPage('apple banana')).total).toBe(3);
    // A word no title has, in the table or not.
    expect((await searchPage('zeppelin')).total).toBe(0);

    // The one-lexeme total really is the kept count: changed behind the triggers' back, it shows.
    await withKeptCount(t.database.db, 'title_word_counts', 'appl', 4242, async () => {
      expect((await searchPage('apples')).total).toBe(4242);
      expect((await searchPage('apple banana')).total).toBe(3);
    });
  });

  it('is answered from the GIN index on the title tsvector', async () => {
    const plan = await t.database.db.transaction().execute(async (trx) => {
      // As the service runs it: a handful of rows would otherwise be cheaper to scan.
      await preferTitleIndex(trx);
      return searchBlogRows(trx, { words: searchWords('apple banana'), viewerId: reader.id, limit: 5, offset: 0 }).explain();
    });
    const text = plan.map((row) => Object.values(row).join(' ')).join('\n');
    expect(text).toContain('blogs_title_tsv_idx');
  });
});
