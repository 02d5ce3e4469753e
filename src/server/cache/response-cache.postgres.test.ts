import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Blog, BlogPage } from '../../shared/blog-schema.js';
import { startPostgresAppProcess } from '../testing/server-process.js';

// Runs in the `postgres` Vitest project only (see vitest.config.ts), where TEST_DATABASE_URL is set.
describe('the response cache across app processes on one Postgres', () => {
  it('a write through one process reaches the other process\'s cache at once', async () => {
    const secret = randomBytes(32).toString('hex');
    const start = () => startPostgresAppProcess(secret);
    const [writer, reader] = [await start(), await start()];

    const signUp = async (url: string) => {
      const email = `cache-${randomBytes(4).toString('hex')}@example.com`;
      const response = await fetch(`${url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery', name: 'cache' }),
      });
      expect(response.status).toBe(200);
      return response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
    };
    // A signed-in writer on the first process creates a blog and later votes on it there.
    const cookie = await signUp(writer.url);
    const form = new FormData();
    form.append('title', 'Read in one process, voted in another');
    form.append('blog', 'Counts must agree.');
    const created = await fetch(`${writer.url}/api/blogs`, { method: 'POST', headers: { origin: writer.url, cookie }, body: form });
    expect(created.status).toBe(201);
    const blog = (await created.json()) as Blog;

    // The second process caches the anonymous answer, and keeps the list's public part for a
    // signed-in reader there, whose own vote is read fresh.
    const readerCookie = await signUp(reader.url);
    const listed = async (cookie: string) => {
      const response = await fetch(`${reader.url}/api/blogs?sort=new&page=1`, { headers: { cookie } });
      return ((await response.json()) as BlogPage).items.find((item) => item.id === blog.id)!;
    };
    expect(await listed(readerCookie)).toMatchObject({ upvotes: 0, myVote: null });
    const read = () => fetch(`${reader.url}/api/blogs/${blog.id}`);
    expect((await read()).headers.get('x-cache')).toBe('miss');
    const cached = await read();
    expect(cached.headers.get('x-cache')).toBe('hit');
    expect(((await cached.json()) as Blog).upvotes).toBe(0);

    const vote = await fetch(`${writer.url}/api/blogs/${blog.id}/vote`, {
      method: 'PUT',
      headers: { origin: writer.url, cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ direction: 'up' }),
    });
    expect(vote.status).toBe(200);

    // The notification travels through Postgres: the reader drops its entry within milliseconds.
    const votedAt = Date.now();
    let upvotes = 0;
    while (upvotes === 0 && Date.now() - votedAt < 2_000) upvotes = ((await (await read()).json()) as Blog).upvotes;
    expect(upvotes).toBe(1);
    expect(Date.now() - votedAt).toBeLessThan(1_000);
    // And it caches the new answer again.
    expect((await read()).headers.get('x-cache')).toBe('hit');
    // The signed-in list there shows the vote too, and the reader's own vote on that process at once.
    expect(await listed(readerCookie)).toMatchObject({ upvotes: 1, myVote: null });
    const ownVote = await fetch(`${reader.url}/api/blogs/${blog.id}/vote`, {
      method: 'PUT',
      headers: { origin: reader.url, cookie: readerCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ direction: 'down' }),
    });
    expect(ownVote.status).toBe(200);
    expect(await listed(readerCookie)).toMatchObject({ upvotes: 1, downvotes: 1, myVote: 'down' });

    for (const { server } of [writer, reader]) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 120_000);
});
