import { type Expression, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorPageSchema, blogPageSchema, type BlogSort } from '../../shared/blog-schema.js';
import { PAGE_SIZE } from '../../shared/constants.js';
import { TEST_PUBLIC_URL, type TestApp, useTestApp } from '../testing/test-app.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import { randomIp, signUpUser, useSignedUpUsers } from '../testing/test-users.js';
import { selectPageIds } from './blogs.repository.js';
import { explain, vacuumBlogsUntilVisible } from '../testing/query-plans.js';

const TAU = 259_200;
const hot = (rating: number, epochSeconds: number) => Math.sign(rating) * Math.log10(Math.max(Math.abs(rating), 1)) + epochSeconds / TAU;

/** Every blog's order keys, sorted in JavaScript: what each order must be, worked out apart from the SQL. */
async function expectedOrder(t: TestApp, sort: BlogSort, authorId?: string): Promise<string[]> {
  let query = t.database.db
    .selectFrom('blogs')
    .select(['id', 'upvotes', 'downvotes', sql<number>`extract(epoch from created_at)::float8`.as('epoch')]);
  if (authorId) query = query.where('user_id', '=', authorId);
  const rows = await query.execute();
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  const keys = rows.map((row) => ({ id: row.id, rating: row.upvotes - row.downvotes, epoch: row.epoch, hot: hot(row.upvotes - row.downvotes, row.epoch) }));
  const compare = {
    top: (a: (typeof keys)[0], b: (typeof keys)[0]) => b.rating - a.rating || b.epoch - a.epoch || byId(a, b),
    new: (a: (typeof keys)[0], b: (typeof keys)[0]) => b.epoch - a.epoch || byId(a, b),
    hot: (a: (typeof keys)[0], b: (typeof keys)[0]) => b.hot - a.hot || byId(a, b),
  }[sort];
  return keys.sort(compare).map((key) => key.id);
}

describe('home list orders and author pages', () => {
  const t = useTestApp();
  const { alice, bob } = useSignedUpUsers(t, ['alice', 'bob']);

  const get = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });
  const ids = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(200);
    return blogPageSchema.parse(response.json()).items.map((item) => item.id);
  };
  const insert = async (title: string, userId: string, hoursAgo: number, upvotes = 0, downvotes = 0) => {
    const row = await t.database.db
      .insertInto('blogs')
      .values({ user_id: userId, title, body: `About ${title}.`, created_at: new Date(Date.now() - hoursAgo * 3_600_000), upvotes, downvotes })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  it('orders Top by rating, New by date and Hot by rating with time decay', async () => {
    // An old favourite, a fresh blog with a few votes, a fresh blog with none, a disliked one.
    const oldFavourite = await insert('Old favourite', alice.id, 24 * 10, 100);
    const freshLiked = await insert('Fresh and liked', bob.id, 2, 5);
    const fresh = await insert('Brand new', alice.id, 1);
    const disliked = await insert('Disliked', bob.id, 3, 0, 8);

    expect(await ids('/api/blogs')).toEqual([oldFavourite, freshLiked, fresh, disliked]);
    expect(await ids('/api/blogs?sort=top')).toEqual([oldFavourite, freshLiked, fresh, disliked]);
    expect(await ids('/api/blogs?sort=new')).toEqual([fresh, freshLiked, disliked, oldFavourite]);
    // Ten days is 3.3 τ: more than the favourite's two orders of magnitude of votes buy it.
    expect(await ids('/api/blogs?sort=hot')).toEqual([freshLiked, fresh, disliked, oldFavourite]);
    for (const sort of ['top', 'new', 'hot'] as const) expect(await ids(`/api/blogs?sort=${sort}`)).toEqual(await expectedOrder(t, sort));

    // A vote moves the hot order at once: +10 on the disliked blog makes it the hottest.
    // Written straight into the tables: 18 sign-ups hash 18 passwords, most of this test's time on two cores.
    const voters = await createSignedInUsers({ db: t.database.db, authSecret: t.config.authSecret }, 18);
    for (const voter of voters) {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/blogs/${disliked}/vote`,
        headers: { origin: TEST_PUBLIC_URL, cookie: voter.cookie },
        remoteAddress: randomIp(),
        payload: { direction: 'up' },
      });
      expect(response.statusCode).toBe(200);
    }
    expect((await ids('/api/blogs?sort=hot'))[0]).toBe(disliked);
    expect(await ids('/api/blogs?sort=hot')).toEqual(await expectedOrder(t, 'hot'));
  });

  it('refuses an unknown order with 400 and the error shape', async () => {
    for (const sort of ['best', 'TOP', '']) {
      const response = await get(`/api/blogs?sort=${sort}`);
      expect(response.statusCode, sort).toBe(400);
      expect(response.json()).toMatchObject({ error: 'BAD_REQUEST', message: expect.any(String) });
    }
  });

  it("lists an author's blogs newest first with their e-mail, 404 for no such author", async () => {
    const page = authorPageSchema.parse((await get(`/api/authors/${encodeURIComponent(alice.id)}/blogs`)).json());
    expect(page.author).toEqual({ id: alice.id, name: alice.email, email: alice.email, handle: expect.stringMatching(/^[a-z0-9_]{3,30}$/), displayName: null, bio: null });
    expect(page.items.map((item) => item.id)).toEqual(await expectedOrder(t, 'new', alice.id));
    expect(page.items.every((item) => item.userId === alice.id && item.author === alice.email)).toBe(true);
    expect(page.items[0]).not.toHaveProperty('html');

    const nobody = await get('/api/authors/no-such-user/blogs');
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toEqual({ error: 'NOT_FOUND', message: 'This author does not exist' });

    const writerWithout = await signUpUser(t.app);
    const empty = authorPageSchema.parse((await get(`/api/authors/${writerWithout.id}/blogs`)).json());
    expect(empty).toMatchObject({ author: { email: writerWithout.email }, items: [], hasMore: false });
  });
});

describe('the three orders and author pages at 10,000 blogs', () => {
  const COUNT = 10_000;
  const INDEXES = { top: 'blogs_home_order_idx', new: 'blogs_newest_idx', hot: 'blogs_hot_idx' } as const;
  const t = useTestApp();
  const { author, other } = useSignedUpUsers(t, ['author', 'other']);

  beforeAll(async () => {
    // Whole seconds seven minutes apart; counts spread so ratings repeat (ties are broken by date, then id).
    await sql`
      insert into blogs (user_id, title, body, created_at, updated_at, upvotes, downvotes)
      select case when n % 10 = 0 then ${author.id} else ${other.id} end, 'Blog ' || n, repeat('Text ', 50),
             timestamptz '2026-01-01 00:00:00+00' + n * interval '7 minutes', now(), (n * 37) % 101, (n * 53) % 41
      from generate_series(1, ${COUNT}) as n
    `.execute(t.database.db);
    await sql`analyze blogs`.execute(t.database.db);
    await vacuumBlogsUntilVisible(t.database.db);
  }, 120_000);

  const plan = (query: Expression<unknown>) => explain(t.database.db, query);
  const pageIds = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });
    expect(response.statusCode, response.body).toBe(200);
    return blogPageSchema.parse(response.json());
  };

  for (const sort of ['top', 'new', 'hot'] as const) {
    it(`'${sort}' pages are index scans of ${INDEXES[sort]}, in order, without gaps or repeats`, async () => {
      for (const offset of [0, 999 * PAGE_SIZE, (COUNT / PAGE_SIZE - 1) * PAGE_SIZE]) {
        const text = await plan(selectPageIds(t.database.db, sort, { offset, limit: PAGE_SIZE + 1 }));
        expect(text, `${sort} at offset ${offset}`).toContain(INDEXES[sort]);
        expect(text, `${sort} at offset ${offset}`).not.toMatch(/Seq Scan on blogs|Sort/);
      }

      const expected = await expectedOrder(t, sort);
      expect(new Set(expected).size).toBe(COUNT);
      const walk = async (from: number, to: number) => {
        const seen: string[] = [];
        for (let page = from; page <= to; page++) {
          const answer = await pageIds(`/api/blogs?sort=${sort}&page=${page}`);
          expect(answer.hasMore, `page ${page}`).toBe(page < COUNT / PAGE_SIZE);
          seen.push(...answer.items.map((item) => item.id));
        }
        return seen;
      };
      // The first pages, pages around 1,000 and the last pages, each a contiguous run of the order.
      for (const [from, to] of [[1, 4], [999, 1002], [COUNT / PAGE_SIZE - 1, COUNT / PAGE_SIZE + 1]] as const) {
        const seen = await walk(from, to);
        expect(new Set(seen).size, `pages ${from}-${to} repeat a blog`).toBe(seen.length);
        expect(seen).toEqual(expected.slice((from - 1) * PAGE_SIZE, to * PAGE_SIZE));
      }
    }, 60_000);
  }

  it("an author's pages read their range of blogs_user_newest_idx, newest first", async () => {
    const text = await plan(selectPageIds(t.database.db, 'new', { offset: 100 * PAGE_SIZE, limit: PAGE_SIZE + 1, authorId: author.id }));
    expect(text).toMatch(/blogs_user_newest_idx|blogs_newest_idx/);
    expect(text).not.toMatch(/Seq Scan on blogs|Sort/);
    const expected = await expectedOrder(t, 'new', author.id);
    expect(expected).toHaveLength(COUNT / 10);
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const answer = authorPageSchema.parse(
        (await t.app.inject({ method: 'GET', url: `/api/authors/${author.id}/blogs?page=${page}`, remoteAddress: randomIp() })).json(),
      );
      seen.push(...answer.items.map((item) => item.id));
    }
    expect(seen).toEqual(expected.slice(0, 3 * PAGE_SIZE));
  }, 60_000);
});
