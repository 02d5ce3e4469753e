import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPageSchema, type SearchPage } from '../../shared/blog-schema.js';
import { SEARCH_MAX_WORDS } from '../../shared/constants.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { explain } from '../testing/query-plans.js';
import { randomIp, signUpUser, uniqueEmail, type TestUser } from '../testing/test-users.js';
import { blogWrites } from '../testing/blog-writes.js';
import { countPublicMatches, withKeptCount } from '../testing/recount.js';
import { SNIPPET_MAX_LENGTH } from './snippet-parts.js';
import { prepareTextSearch, selectMatchPage } from './text-search.repository.js';
import { SEARCH_TEXT_RANK_CAP, SEARCH_TEXT_UNGUARDED_OFFSET } from './text-search.service.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');

describe('search in text (in=all)', () => {
  let t: TestApp;
  let author: TestUser;
  let writes: ReturnType<typeof blogWrites>;
  const ids: Record<string, string> = {};

  const search = (searchTerm: string, options: { page?: number; in?: string } = {}) => {
    const query = new URLSearchParams({ searchTerm });
    if (options.in !== '') query.set('in', options.in ?? 'all');
    if (options.page !== undefined) query.set('page', String(options.page));
    return t.app.inject({ method: 'GET', url: `/api/search?${query}`, remoteAddress: randomIp() });
  };
  const found = async (searchTerm: string, options: { page?: number; in?: string } = {}) => {
    const response = await search(searchTerm, options);
    expect(response.statusCode, `${searchTerm}: ${response.body}`).toBe(200);
    return searchPageSchema.parse(response.json());
  };
  const titles = (page: SearchPage) => page.items.map((blog) => blog.title);
  const snippetText = (page: SearchPage, title: string) => page.items.find((blog) => blog.title === title)?.snippet?.map((part) => part.text).join('');
  const matches = (page: SearchPage, title: string) =>
    page.items.find((blog) => blog.title === title)?.snippet?.filter((part) => part.match).map((part) => part.text);
  /** The number of public blogs matching, counted afresh through the index with THE visibility rule. */
  const fresh = (term: string) => countPublicMatches(t.database.db, 'search_tsv', term);

  beforeAll(async () => {
    t = await createTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL, RATE_LIMIT_SCALE: '100' });
    const [moderator, writer, suspended] = await Promise.all([signUpUser(t.app, { email: MODERATOR_EMAIL }), signUpUser(t.app), signUpUser(t.app)]);
    author = writer;
    writes = blogWrites(t, moderator);
    const blogs: Array<[string, string]> = [
      ['Gardening basics', 'Roses need sunlight. Running water helps the garden grow.'],
      ['Kitchen notes', 'How to bake bread: **knead** the dough, then rest it. Roses on the table.'],
      ['Roses in winter', 'Cold nights.'],
      ['Markup', 'Type `<script>alert(1)</script>` and <b>bold</b> & "quotes" near the word zebra.'],
      ['Foxes', 'The quick brown fox jumps over the lazy dog.'],
      ['Reordered', 'A brown dog and a quick fox.'],
      ['Sentinels', 'alpha \u0001beta\u0002 gamma'],
    ];
    for (const [title, blog] of blogs) ids[title] = (await writes.create(author, { title, blog })).id;
    await writes.create(author, { title: 'Draft', blog: 'A zebra draft.', status: 'draft' });
    const hidden = await writes.create(author, { title: 'Hidden', blog: 'A hidden zebra.' });
    await writes.moderate({ action: 'hide', targetType: 'blog', targetId: hidden.id, reason: 'Testing.' });
    await writes.create(suspended, { title: 'Suspended', blog: 'A suspended zebra.' });
    await writes.moderate({ action: 'suspend', userId: suspended.id, reason: 'Testing.' });
  });
  afterAll(() => t.close());

  it('leaves the spec’s title search as it is by default, and searches titles and texts with in=all', async () => {
    const titlesOnly = await found('roses', { in: '' });
    expect(titlesOnly).toMatchObject({ total: 1 });
    expect(titles(titlesOnly)).toEqual(['Roses in winter']);
    expect(titlesOnly.items[0]!.snippet).toBeUndefined();
    expect(titles(await found('roses', { in: 'title' }))).toEqual(['Roses in winter']);

    const everywhere = await found('roses');
    expect(everywhere).toMatchObject({ total: 3, page: 1, pageSize: 5, hasMore: false });
    // The title weighs more than the text: the blog titled with the word comes first.
    expect(titles(everywhere)[0]).toBe('Roses in winter');
    expect(titles(everywhere).slice(1).sort()).toEqual(['Gardening basics', 'Kitchen notes']);
    expect((await search('roses', { in: 'body' })).statusCode).toBe(400);
  });

  it('finds word forms (English stemming), in any case', async () => {
    expect(titles(await found('run'))).toEqual(['Gardening basics']);
    expect(titles(await found('KNEADING'))).toEqual(['Kitchen notes']);
    expect(titles(await found('baked breads'))).toEqual(['Kitchen notes']);
    expect(titles(await found('gardens'))).toEqual(['Gardening basics']);
  });

  it('finds phrases in quotes, leaves out -words, and takes or', async () => {
    expect(titles(await found('"quick brown fox"'))).toEqual(['Foxes']);
    expect(titles(await found('quick brown fox')).sort()).toEqual(['Foxes', 'Reordered']);
    expect(titles(await found('roses -kitchen')).sort()).toEqual(['Gardening basics', 'Roses in winter']);
    expect(titles(await found('roses -"cold nights" -bread'))).toEqual(['Gardening basics']);
    expect(titles(await found('zebra or dough')).sort()).toEqual(['Kitchen notes', 'Markup']);
  });

  it('never finds drafts, hidden blogs or the blogs of suspended authors, nor counts them', async () => {
    const zebra = await found('zebra');
    expect(titles(zebra)).toEqual(['Markup']);
    expect(zebra.total).toBe(1);
    expect((await found('suspended')).total).toBe(0);
    expect((await found('"hidden zebra"')).total).toBe(0);
    expect((await found('draft')).total).toBe(0);
  });

  it('gives each result a snippet around the matched words, as parts of plain text', async () => {
    const page = await found('sunlight');
    expect(matches(page, 'Gardening basics')).toEqual(['sunlight']);
    expect(snippetText(page, 'Gardening basics')).toBe('Roses need sunlight. Running water helps the garden grow.');
    // Word forms are marked as written.
    expect(matches(await found('run'), 'Gardening basics')).toEqual(['Running']);
    // Markdown is not in the text: what the reader sees is.
    expect(snippetText(await found('knead'), 'Kitchen notes')).toContain('How to bake bread: knead the dough');
  });

  it('keeps markup in snippets as text, and a writer cannot fake a match with the sentinels', async () => {
    const page = await found('zebra');
    const parts = page.items[0]!.snippet!;
    expect(parts.filter((part) => part.match).map((part) => part.text)).toEqual(['zebra']);
    const text = parts.map((part) => part.text).join('');
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('<b>bold</b> & "quotes"');
    // eslint-disable-next-line no-control-regex -- no sentinel nor stand-in may be left in the text
    for (const part of parts) expect(part.text).not.toMatch(/[\u0000-\u001f]/);
    // Words written inside something that looks like markup are words of the text.
    expect(titles(await found('script'))).toEqual(['Markup']);
    expect(matches(await found('bold'), 'Markup')).toEqual(['bold']);

    const sentinels = await found('gamma');
    expect(matches(sentinels, 'Sentinels')).toEqual(['gamma']);
    expect(snippetText(sentinels, 'Sentinels')).toBe('alpha beta gamma');
  });

  it("finds the snippet deep in a long text, from a word's start", async () => {
    await writes.create(author, { title: 'Deep', blog: `${'lorem ipsum '.repeat(1200)}then the quetzal flies over ${'dolor sit '.repeat(300)}` });
    const page = await found('quetzals');
    expect(matches(page, 'Deep')).toEqual(['quetzal']);
    const text = snippetText(page, 'Deep')!;
    expect(text).toContain('quetzal flies over dolor');
    // Whole words only, though the text it is cut from starts far into the blog.
    const known = new Set(['lorem', 'ipsum', 'then', 'the', 'quetzal', 'flies', 'over', 'dolor', 'sit']);
    expect(text.split(' ').filter((word) => !known.has(word))).toEqual([]);
    // A stem that is not part of its word ('happi' for 'happy') is still found; its snippet may start at the text's start.
    await writes.create(author, { title: 'Stem', blog: `${'plain words '.repeat(800)}so happy` });
    expect(titles(await found('happy'))).toEqual(['Stem']);
  });

  it('keeps every snippet bounded, however long the text or its words', async () => {
    await writes.create(author, { title: 'Long', blog: `${'endless '.repeat(1000)} ${'y'.repeat(4000)} needle ${'z'.repeat(4000)}` });
    const page = await found('needle');
    expect(snippetText(page, 'Long')!.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH + 1);
    const endless = await found('endless');
    expect(snippetText(endless, 'Long')!.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH + 1);
  });

  it('states the exact total: one word from the kept count, anything else counted', async () => {
    for (const term of ['roses', 'rose', 'roses -kitchen', '"quick brown"', 'zebra or dough', 'quick brown fox']) {
      expect((await found(term)).total, term).toBe(await fresh(term));
    }
    // The one-word total really is the kept count: changed behind the triggers' back, it shows.
    await withKeptCount(t.database.db, 'text_word_counts', 'rose', 4242, async () => {
      expect((await found('roses')).total).toBe(4242);
      expect((await found('roses -kitchen')).total).toBe(2);
    });
  });

  it('finds nothing for a term without words, only stop words, or only exclusions', async () => {
    for (const term of ['', '   ', 'the and of', '!!!', '🍎', '-roses', '-roses -bread', 'roses or -bread', '""', '"-"']) {
      expect(await found(term), JSON.stringify(term)).toEqual({ items: [], total: 0, page: 1, pageSize: 5, hasMore: false });
    }
  });

  it('stays safe with hostile input', async () => {
    for (const term of ["'; drop table blogs; --", 'a & !b | (c:*)', '"unclosed', '<img src=x onerror=alert(1)>', '\\', "o'neil", 'roses:* | !', 'x'.repeat(1000)]) {
      const response = await search(term);
      expect(response.statusCode, term).toBe(200);
      expect(() => searchPageSchema.parse(response.json())).not.toThrow();
    }
    const tooMany = Array.from({ length: SEARCH_MAX_WORDS + 1 }, (_, i) => `w${i}`).join(' ');
    expect((await search(tooMany)).statusCode).toBe(400);
    expect((await search('x'.repeat(1001))).statusCode).toBe(400);
    expect((await t.database.db.selectFrom('blogs').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n).toBeGreaterThan(0);
  });

  it('follows each write: an edited text is found by its new words, not its old ones', async () => {
    const blog = await writes.create(author, { title: 'Changing', blog: 'About marmalade.' });
    expect(titles(await found('marmalade'))).toEqual(['Changing']);
    await writes.edit(author, blog.id, { title: 'Changing', blog: 'About chutney.' });
    expect((await found('marmalade')).total).toBe(0);
    expect(titles(await found('chutney'))).toEqual(['Changing']);
    await writes.remove(author, blog.id);
    expect((await found('chutney')).total).toBe(0);
  });

  it('pages 5 at a time with the total and whether more follow', async () => {
    for (let i = 0; i < 7; i++) await writes.create(author, { title: `Episode ${i}`, blog: `Notes about the pelican, part ${i}.` });
    const first = await found('pelican');
    const second = await found('pelican', { page: 2 });
    expect([first.items.length, second.items.length]).toEqual([5, 2]);
    expect([first.hasMore, second.hasMore]).toEqual([true, false]);
    expect([first.total, second.total]).toEqual([7, 7]);
    expect(new Set([...first.items, ...second.items].map((blog) => blog.id)).size).toBe(7);
    expect(await found('pelican', { page: 3 })).toEqual({ items: [], total: 7, page: 3, pageSize: 5, hasMore: false });
  });

  it('beyond the ranking cap, puts title matches first, then the others, each best rated first, with the exact total', async () => {
    const count = SEARCH_TEXT_RANK_CAP + 8;
    const base = Date.parse('2025-06-01T00:00:00Z');
    await t.database.db
      .insertInto('blogs')
      .values(
        Array.from({ length: count }, (_, i) => ({
          user_id: author.id,
          // One in a hundred has the word in its title.
          title: i % 100 === 0 ? `Lighthouse ${i}` : `Coast ${i}`,
          body: `A walk to the lighthouse, number ${i}.`,
          body_text: `A walk to the lighthouse, number ${i}.`,
          upvotes: (i * 7919) % 13,
          created_at: new Date(base + i * 60_000),
        })),
      )
      .execute();
    const inTitles = Math.ceil(count / 100);
    const first = await found('lighthouse');
    expect(first).toMatchObject({ total: count, hasMore: true });
    expect(first.total).toBe(await fresh('lighthouse'));
    const pages = [first, ...(await Promise.all([2, 3, 4].map((page) => found('lighthouse', { page }))))];
    const seen = pages.flatMap((page) => page.items);
    expect(seen.slice(0, inTitles).every((blog) => blog.title.startsWith('Lighthouse'))).toBe(true);
    expect(seen.slice(inTitles).every((blog) => blog.title.startsWith('Coast'))).toBe(true);
    const rated = (blogs: typeof seen) => blogs.every((blog, i) => i === 0 || blogs[i - 1]!.rating >= blog.rating);
    expect(rated(seen.slice(0, inTitles))).toBe(true);
    expect(rated(seen.slice(inTitles))).toBe(true);
    expect(new Set(seen.map((blog) => blog.id)).size).toBe(seen.length);
    // Paging goes on to the real end.
    const lastPage = Math.ceil(count / 5);
    const last = await found('lighthouse', { page: lastPage });
    expect(last).toMatchObject({ total: count, hasMore: false });
    expect(last.items).toHaveLength(count % 5 || 5);
    // Several words: counted through the index, the same tiers.
    expect((await found('lighthouse walk')).total).toBe(await fresh('lighthouse walk'));
  });

  it('answers a deep page of one word too (past the unguarded depth, in the steered transaction)', async () => {
    const count = SEARCH_TEXT_UNGUARDED_OFFSET + 10;
    await t.database.db
      .insertInto('blogs')
      .values(Array.from({ length: count }, (_, i) => ({ user_id: author.id, title: `Sea ${i}`, body: 'x', body_text: `An albatross, number ${i}.` })))
      .execute();
    const deepPage = Math.ceil((SEARCH_TEXT_UNGUARDED_OFFSET + 1) / 5) + 1;
    const deep = await found('albatross', { page: deepPage });
    expect(deep.total).toBe(count);
    expect(deep.items).toHaveLength(5);
    const last = await found('albatross', { page: Math.ceil(count / 5) });
    expect(last).toMatchObject({ total: count, hasMore: false });
  });

  it('is answered from the GIN index of search_tsv', async () => {
    const plan = await t.database.db.transaction().execute(async (trx) => {
      await prepareTextSearch(trx, 5_000);
      return explain(trx, selectMatchPage(trx, 'roses -bread', { kind: 'ranked', limit: 5, offset: 0 }));
    });
    expect(plan).toContain('blogs_search_tsv_idx');
  });
});
