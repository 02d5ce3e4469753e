import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { SearchPage, VoteResult } from '../../shared/blog-schema.js';
import { messages } from '../../shared/messages.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser, useSignedUpUsers } from '../testing/test-users.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';

describe('votes', () => {
  const t = useTestApp();
  const { owner, voter } = useSignedUpUsers(t, ['owner', 'voter']);

  const insertBlog = async (title = 'A blog to vote on', userId = owner.id) => {
    const row = await t.database.db
      .insertInto('blogs')
      .values({ user_id: userId, title, body: 'Some content.' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  const vote = (blogId: string, direction: string, user?: TestUser) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/blogs/${encodeURIComponent(blogId)}/vote`,
      headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) },
      remoteAddress: randomIp(),
      payload: { direction },
    });

  const blogCounts = (blogId: string) =>
    t.database.db.selectFrom('blogs').select(['upvotes', 'downvotes', 'rating']).where('id', '=', blogId).executeTakeFirst();

  /** The counts as the votes table has them: what the blog's stored counts must equal. */
  const countedVotes = async (blogId: string) => {
    const rows = await t.database.db
      .selectFrom('votes')
      .select(['direction', sql<number>`count(*)::int`.as('n')])
      .where('blog_id', '=', blogId)
      .groupBy('direction')
      .execute();
    const up = rows.find((row) => row.direction === 'up')?.n ?? 0;
    const down = rows.find((row) => row.direction === 'down')?.n ?? 0;
    return { upvotes: up, downvotes: down, rating: up - down };
  };

  it('refuses signed-out voters with 401 and records nothing', async () => {
    const blogId = await insertBlog();
    const response = await vote(blogId, 'up');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'UNAUTHORIZED' });
    expect(await blogCounts(blogId)).toEqual({ upvotes: 0, downvotes: 0, rating: 0 });
    expect(await countedVotes(blogId)).toEqual({ upvotes: 0, downvotes: 0, rating: 0 });
  });

  it('records an upvote, refuses the same vote twice, moves the vote the other way', async () => {
    const blogId = await insertBlog();

    const up = await vote(blogId, 'up', voter);
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ blogId, upvotes: 1, downvotes: 0, rating: 1, myVote: 'up' });

    const upAgain = await vote(blogId, 'up', voter);
    expect(upAgain.statusCode).toBe(409);
    expect(upAgain.json()).toEqual({ error: 'ALREADY_VOTED', message: messages.alreadyUpvoted });
    expect(upAgain.json().message).toBe('You have already upvoted this blog');
    expect(await blogCounts(blogId)).toEqual({ upvotes: 1, downvotes: 0, rating: 1 });

    const down = await vote(blogId, 'down', voter);
    expect(down.statusCode).toBe(200);
    expect(down.json()).toEqual({ blogId, upvotes: 0, downvotes: 1, rating: -1, myVote: 'down' });

    const downAgain = await vote(blogId, 'down', voter);
    expect(downAgain.statusCode).toBe(409);
    expect(downAgain.json().message).toBe('You have already downvoted this blog');

    const back = await vote(blogId, 'up', voter);
    expect(back.json()).toEqual({ blogId, upvotes: 1, downvotes: 0, rating: 1, myVote: 'up' });

    const rows = await t.database.db.selectFrom('votes').selectAll().where('blog_id', '=', blogId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: voter.id, direction: 'up' });
  });

  const unvote = (blogId: string, user?: TestUser) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/blogs/${encodeURIComponent(blogId)}/vote`,
      headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) },
      remoteAddress: randomIp(),
    });

  /** The stored hot score, and what the formula gives for the blog's stored counts and age. */
  const hotScores = async (blogId: string) => {
    const row = await t.database.db
      .selectFrom('blogs')
      .select(['hot_score', 'upvotes', 'downvotes', sql<number>`extract(epoch from created_at)::float8`.as('epoch')])
      .where('id', '=', blogId)
      .executeTakeFirstOrThrow();
    const rating = row.upvotes - row.downvotes;
    return { stored: row.hot_score, expected: Math.sign(rating) * Math.log10(Math.max(Math.abs(rating), 1)) + row.epoch / 259_200 };
  };

  it("takes a vote back: counts and hot score return, the user may vote again, and there being no vote is no error", async () => {
    const blogId = await insertBlog();
    const others = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    for (const other of others) expect((await vote(blogId, 'up', other)).statusCode).toBe(200);
    const before = await hotScores(blogId);
    expect((await vote(blogId, 'up', voter)).json()).toMatchObject({ upvotes: 3, rating: 3 });
    const voted = await hotScores(blogId);
    expect(voted.stored).toBeCloseTo(voted.expected, 9);
    expect(voted.stored).toBeGreaterThan(before.stored);

    const removed = await unvote(blogId, voter);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ blogId, upvotes: 2, downvotes: 0, rating: 2, myVote: null });
    expect(await blogCounts(blogId)).toEqual(await countedVotes(blogId));
    expect((await hotScores(blogId)).stored).toBeCloseTo(before.stored, 12);
    const myVote = await t.database.db.selectFrom('votes').select('direction').where('blog_id', '=', blogId).where('user_id', '=', voter.id).executeTakeFirst();
    expect(myVote).toBeUndefined();

    // Nothing left to take back: the same answer, nothing moves.
    const again = await unvote(blogId, voter);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ blogId, upvotes: 2, downvotes: 0, rating: 2, myVote: null });

    // A downvote after taking the upvote back; the same vote twice is still refused with the spec's text.
    expect((await vote(blogId, 'down', voter)).json()).toMatchObject({ upvotes: 2, downvotes: 1, rating: 1, myVote: 'down' });
    expect((await vote(blogId, 'down', voter)).json()).toEqual({ error: 'ALREADY_VOTED', message: messages.alreadyDownvoted });
    const scored = await hotScores(blogId);
    expect(scored.stored).toBeCloseTo(scored.expected, 9);
  });

  it('refuses to take back a vote when signed out (401) or on an unknown blog (404)', async () => {
    const blogId = await insertBlog();
    expect((await vote(blogId, 'up', voter)).statusCode).toBe(200);
    const anonymous = await unvote(blogId);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: 'UNAUTHORIZED' });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await unvote(id, voter);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({ error: 'NOT_FOUND', message: messages.blogDoesNotExist });
    }
    expect(await blogCounts(blogId)).toEqual({ upvotes: 1, downvotes: 0, rating: 1 });
  });

  it('adds up the votes of several users; rating is always upvotes minus downvotes', async () => {
    const blogId = await insertBlog();
    const others = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    expect((await vote(blogId, 'down', voter)).json()).toMatchObject({ upvotes: 0, downvotes: 1, rating: -1 });
    expect((await vote(blogId, 'up', others[0])).json()).toMatchObject({ upvotes: 1, downvotes: 1, rating: 0 });
    // The owner may vote on their own blog too: the spec does not forbid it.
    expect((await vote(blogId, 'down', owner)).json()).toMatchObject({ upvotes: 1, downvotes: 2, rating: -1 });
    expect((await vote(blogId, 'up', others[1])).json()).toMatchObject({ upvotes: 2, downvotes: 2, rating: 0 });
    expect(await blogCounts(blogId)).toEqual(await countedVotes(blogId));
  });

  it('answers 404 for an unknown or malformed blog id, and 400 for a bad direction', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1", '123']) {
      const response = await vote(id, 'up', voter);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({ error: 'NOT_FOUND', message: messages.blogDoesNotExist });
    }
    const blogId = await insertBlog();
    for (const direction of ['sideways', '', 'UP']) {
      const response = await vote(blogId, direction, voter);
      expect(response.statusCode, direction).toBe(400);
      expect(response.json()).toMatchObject({ error: 'BAD_REQUEST' });
    }
    const noBody = await t.app.inject({ method: 'PUT', url: `/api/blogs/${blogId}/vote`, headers: { origin: TEST_PUBLIC_URL, cookie: voter.cookie } });
    expect(noBody.statusCode).toBe(400);
    expect(await blogCounts(blogId)).toEqual({ upvotes: 0, downvotes: 0, rating: 0 });
  });

  it('stays exact under 200 concurrent votes from 100 users (each up and down, in random order)', async () => {
    const blogId = await insertBlog('The contested blog');
    const bystander = await insertBlog('A blog nobody votes on');
    const users = await createSignedInUsers({ db: t.database.db, authSecret: t.config.authSecret }, 100);

    const requests = users.flatMap((user) => [
      { user, direction: 'up' as const },
      { user, direction: 'down' as const },
    ]);
    for (let i = requests.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [requests[i], requests[j]] = [requests[j]!, requests[i]!];
    }

    const responses = await Promise.all(requests.map(({ user, direction }) => vote(blogId, direction, user)));

    // Each user's two votes differ, so the first to commit inserts and the second moves it: no 409.
    for (const [i, response] of responses.entries()) {
      expect(response.statusCode, response.body).toBe(200);
      const result = response.json() as VoteResult;
      expect(result.myVote).toBe(requests[i]!.direction);
      // Every answer is a state the blog really passed through: consistent, within bounds.
      expect(result.rating).toBe(result.upvotes - result.downvotes);
      expect(result.upvotes + result.downvotes).toBeGreaterThanOrEqual(1);
      expect(result.upvotes + result.downvotes).toBeLessThanOrEqual(100);
    }
    // Votes on one blog take turns on its row, and each answer reads the counts right after its own
    // vote. The 100 first votes each raise the total by one, so every total from 1 to 100 was answered.
    const totals = new Set(responses.map((response) => response.json() as VoteResult).map((r) => r.upvotes + r.downvotes));
    expect([...totals].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));

    const votes = await t.database.db.selectFrom('votes').select(['user_id', 'direction']).where('blog_id', '=', blogId).execute();
    expect(votes).toHaveLength(100);
    expect(new Set(votes.map((row) => row.user_id)).size).toBe(100);

    const stored = await blogCounts(blogId);
    const counted = await countedVotes(blogId);
    expect(stored).toEqual(counted);
    expect(stored!.upvotes + stored!.downvotes).toBe(100);
    expect(stored!.rating).toBe(stored!.upvotes - stored!.downvotes);
    expect(await blogCounts(bystander)).toEqual({ upvotes: 0, downvotes: 0, rating: 0 });

    // The stored vote is each user's last-applied one. The total never falls, so where a user's two
    // answers show different totals, the one with the larger total was applied second.
    const finalVote = new Map(votes.map((row) => [row.user_id, row.direction]));
    let ordered = 0;
    for (const user of users) {
      const [a, b] = requests
        .map((request, i) => ({ ...request, result: responses[i]!.json() as VoteResult }))
        .filter((answer) => answer.user === user)
        .map((answer) => ({ direction: answer.direction, total: answer.result.upvotes + answer.result.downvotes }));
      if (a!.total === b!.total) continue;
      ordered++;
      expect(finalVote.get(user.id)).toBe(a!.total > b!.total ? a!.direction : b!.direction);
    }
    expect(ordered).toBeGreaterThan(0);

    // And repeating it is refused, without touching the counts.
    const repeats = await Promise.all(users.map((user) => vote(blogId, finalVote.get(user.id)!, user)));
    for (const response of repeats) expect(response.statusCode).toBe(409);
    expect(await blogCounts(blogId)).toEqual(stored);
  }, 120_000); // 300 requests through one embedded database on a busy two-core machine: give it room.

  it('removes the votes of a deleted user and corrects the counts', async () => {
    const blogId = await insertBlog();
    const [a, b, c] = await Promise.all([signUpUser(t.app), signUpUser(t.app), signUpUser(t.app)]);
    await vote(blogId, 'up', a!);
    await vote(blogId, 'up', b!);
    await vote(blogId, 'down', c!);
    expect(await blogCounts(blogId)).toEqual({ upvotes: 2, downvotes: 1, rating: 1 });

    await t.database.db.deleteFrom('user').where('id', '=', a!.id).execute();
    expect(await blogCounts(blogId)).toEqual({ upvotes: 1, downvotes: 1, rating: 0 });
    await t.database.db.deleteFrom('user').where('id', '=', c!.id).execute();
    expect(await blogCounts(blogId)).toEqual({ upvotes: 1, downvotes: 0, rating: 1 });
    expect(await countedVotes(blogId)).toEqual({ upvotes: 1, downvotes: 0, rating: 1 });
    const left = await t.database.db.selectFrom('votes').select('user_id').where('blog_id', '=', blogId).execute();
    expect(left).toEqual([{ user_id: b!.id }]);

    // A deleted user's session no longer votes.
    expect((await vote(blogId, 'up', a!)).statusCode).toBe(401);
  });

  it('removes the votes on a deleted blog, also when its owner is deleted', async () => {
    const author = await signUpUser(t.app);
    const first = await insertBlog('First of two', author.id);
    const second = await insertBlog('Second of two', author.id);
    const kept = await insertBlog('Someone else’s blog');
    for (const blogId of [first, second, kept]) await vote(blogId, 'up', voter);
    await vote(kept, 'down', author);
    expect(await blogCounts(kept)).toEqual({ upvotes: 1, downvotes: 1, rating: 0 });

    await t.database.db.deleteFrom('blogs').where('id', '=', first).execute();
    expect(await t.database.db.selectFrom('votes').selectAll().where('blog_id', '=', first).execute()).toEqual([]);
    expect((await vote(first, 'down', voter)).statusCode).toBe(404);

    // The author goes: their blog and its votes go, and their vote on another blog is taken back.
    await t.database.db.deleteFrom('user').where('id', '=', author.id).execute();
    expect(await t.database.db.selectFrom('votes').selectAll().where('blog_id', '=', second).execute()).toEqual([]);
    expect(await blogCounts(kept)).toEqual({ upvotes: 1, downvotes: 0, rating: 1 });
    expect(await blogCounts(kept)).toEqual(await countedVotes(kept));
  });

  it("gives each blog the caller's own vote as myVote, in search results and on its own", async () => {
    const word = `quokka${randomInt(1_000_000)}`;
    const upBlog = await insertBlog(`${word} upvoted`);
    const downBlog = await insertBlog(`${word} downvoted`);
    const untouched = await insertBlog(`${word} untouched`);
    await vote(upBlog, 'up', voter);
    await vote(downBlog, 'down', voter);

    const search = async (user?: TestUser) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/search?searchTerm=${word}`,
        headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) },
      });
      expect(response.statusCode).toBe(200);
      const page = response.json() as SearchPage;
      return Object.fromEntries(page.items.map((blog) => [blog.id, blog.myVote]));
    };
    expect(await search(voter)).toEqual({ [upBlog]: 'up', [downBlog]: 'down', [untouched]: null });
    expect(await search(owner)).toEqual({ [upBlog]: null, [downBlog]: null, [untouched]: null });
    expect(await search()).toEqual({ [upBlog]: null, [downBlog]: null, [untouched]: null });

    const getBlog = async (blogId: string, user?: TestUser) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/blogs/${blogId}`, headers: user ? { cookie: user.cookie } : {} });
      expect(response.statusCode).toBe(200);
      return response.json() as { myVote: string | null; upvotes: number; downvotes: number; rating: number };
    };
    expect(await getBlog(upBlog, voter)).toMatchObject({ myVote: 'up', upvotes: 1, downvotes: 0, rating: 1 });
    expect(await getBlog(downBlog, voter)).toMatchObject({ myVote: 'down', upvotes: 0, downvotes: 1, rating: -1 });
    expect(await getBlog(upBlog, owner)).toMatchObject({ myVote: null, upvotes: 1 });
    expect(await getBlog(downBlog)).toMatchObject({ myVote: null, downvotes: 1 });
  });
});
