import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPageSchema, searchPageSchema, type BlogSummary } from '../../shared/blog-schema.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { createViewerVotes } from './viewer-votes.js';

describe("signed-in readers' lists: the shared public page and each viewer's own votes", () => {
  let t: TestApp;
  let users: TestUser[];
  let blogIds: string[];

  beforeAll(async () => {
    // With the response cache on, which also keeps the lists' public part (tests turn it off by default).
    t = await createTestApp({ RESPONSE_CACHE_MB: '8' });
    users = await Promise.all(Array.from({ length: 4 }, () => signUpUser(t.app)));
    const rows = await t.database.db
      .insertInto('blogs')
      // A minute apart, newest first: the first five are page 1 of the New order (five per page).
      .values(Array.from({ length: 6 }, (_, i) => ({ user_id: users[0]!.id, title: `Shared page ${i}`, body: `Body ${i}.`, created_at: new Date(Date.now() - i * 60_000) })))
      .returning('id')
      .execute();
    blogIds = rows.map((row) => row.id);
  });
  afterAll(() => t.close());

  const vote = async (user: TestUser, blogId: string, direction: 'up' | 'down') => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/blogs/${blogId}/vote`,
      headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie },
      payload: { direction },
      remoteAddress: randomIp(),
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const listAs = async (user: TestUser | undefined): Promise<Map<string, BlogSummary>> => {
    const response = await t.app.inject({ method: 'GET', url: '/api/blogs?sort=new&page=1', headers: user ? { cookie: user.cookie } : {}, remoteAddress: randomIp() });
    expect(response.statusCode, response.body).toBe(200);
    return new Map(blogPageSchema.parse(response.json()).items.map((item) => [item.id, item]));
  };

  it('gives many viewers asking at once one query, and each only their own votes', async () => {
    const [a, b, c] = users;
    const [x, y, z] = blogIds;
    await vote(a!, x!, 'up');
    await vote(a!, y!, 'down');
    await vote(b!, y!, 'up');
    await vote(c!, z!, 'down');

    const queries: string[] = [];
    const db = t.database.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries.push(args.queryId.queryId);
        return args.result;
      },
    });
    const viewerVotes = createViewerVotes(db);
    const [forA, forB, forC, forD] = await Promise.all([
      viewerVotes(a!.id, [x!, y!, z!]),
      viewerVotes(b!.id, [x!, y!]),
      viewerVotes(c!.id, [x!, y!]),
      viewerVotes(users[3]!.id, [x!, y!, z!]),
    ]);
    expect(queries).toHaveLength(1);
    expect(Object.fromEntries(forA)).toEqual({ [x!]: 'up', [y!]: 'down' });
    expect(Object.fromEntries(forB)).toEqual({ [y!]: 'up' });
    // C voted on z, which C did not ask about: not in the answer.
    expect(Object.fromEntries(forC)).toEqual({});
    expect(Object.fromEntries(forD)).toEqual({});
  });

  it("shows each signed-in reader their own vote and everyone the latest counts, while the page's public part is kept", async () => {
    const [, , , d] = users;
    const target = blogIds[3]!;
    const anonymous = await listAs(undefined);
    expect(anonymous.get(target)).toMatchObject({ upvotes: 0, myVote: null });

    // The public part is kept: a change made behind the app's back (no write through it) is not
    // seen by a signed-in reader either, until a write drops the kept page.
    const title = anonymous.get(target)!.title;
    await t.database.db.updateTable('blogs').set({ title: 'Renamed behind the cache' }).where('id', '=', target).execute();
    expect((await listAs(d)).get(target)).toMatchObject({ title, myVote: null });

    // Read concurrently by several viewers after a vote: each answer has only its viewer's vote.
    await vote(d!, target, 'up');
    expect((await listAs(d)).get(target)).toMatchObject({ title: 'Renamed behind the cache', upvotes: 1, myVote: 'up' });
    const [asD, asA, anonymousAgain] = await Promise.all([listAs(d), listAs(users[0]), listAs(undefined)]);
    expect(asD.get(target)).toMatchObject({ upvotes: 1, myVote: 'up' });
    expect(asA.get(target)).toMatchObject({ upvotes: 1, myVote: null });
    expect(anonymousAgain.get(target)).toMatchObject({ upvotes: 1, myVote: null });

    // Switching and taking the vote back show at once, to the voter and to others.
    await vote(d!, target, 'down');
    expect((await listAs(d)).get(target)).toMatchObject({ upvotes: 0, downvotes: 1, myVote: 'down' });
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/blogs/${target}/vote`, headers: { origin: TEST_PUBLIC_URL, cookie: d!.cookie }, remoteAddress: randomIp() });
    expect(removed.statusCode).toBe(200);
    expect((await listAs(d)).get(target)).toMatchObject({ upvotes: 0, downvotes: 0, myVote: null });
    expect((await listAs(users[1])).get(target)).toMatchObject({ upvotes: 0, downvotes: 0, myVote: null });
  });

  it('does the same for search pages: the matches kept, each viewer\'s vote and the latest counts fresh', async () => {
    const [a, b] = users;
    const target = blogIds[5]!;
    const searchAs = async (user: TestUser | undefined) => {
      const response = await t.app.inject({ method: 'GET', url: '/api/search?searchTerm=shared&page=1', headers: user ? { cookie: user.cookie } : {}, remoteAddress: randomIp() });
      expect(response.statusCode, response.body).toBe(200);
      const page = searchPageSchema.parse(response.json());
      return { total: page.total, target: page.items.find((item) => item.id === target) };
    };
    // Five of the six blogs still say "Shared" (one was renamed above); a vote puts the target first.
    await vote(b!, target, 'up');
    expect(await searchAs(a)).toMatchObject({ total: 5, target: { upvotes: 1, myVote: null } });
    expect(await searchAs(b)).toMatchObject({ total: 5, target: { upvotes: 1, myVote: 'up' } });
    await vote(a!, target, 'up');
    const [asA, asB, anonymous] = await Promise.all([searchAs(a), searchAs(b), searchAs(undefined)]);
    expect(asA.target).toMatchObject({ upvotes: 2, myVote: 'up' });
    expect(asB.target).toMatchObject({ upvotes: 2, myVote: 'up' });
    expect(anonymous.target).toMatchObject({ upvotes: 2, myVote: null });
  });
});
