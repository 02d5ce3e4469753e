import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Blog, BlogPage } from '../shared/blog-schema.js';
import { startPostgresAppProcess } from './testing/server-process.js';

/**
 * Two app processes on the run's Postgres (`TEST_DATABASE_URL`), shared by this file's tests: each
 * start from source (through tsx: the build is not there yet when this project runs) costs seconds
 * of CPU, so the server on Postgres, the response cache and the remembered sessions across
 * processes are proven on one pair. Each test makes its own accounts and blogs. The same secret,
 * so a session made through one process is valid in the other; e-mail verification off for quick
 * sign-ups, and the limits raised (the file signs up four accounts from one address within seconds,
 * and Better Auth allows five a minute: a retried test, or a second run on the same database, would
 * pass it; the limits are not what this file is about); sessions remembered for 60 s, longer than
 * the file runs.
 */
const startAppProcess = (secret: string) => startPostgresAppProcess(secret, { RATE_LIMIT_SCALE: '100', SESSION_CACHE_SECONDS: '60' }, { lifetime: 'file' });

async function signUp(url: string, prefix: string) {
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${prefix}-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery', name: prefix }),
  });
  expect(response.status).toBe(200);
  const { user } = (await response.json()) as { user: { id: string } };
  return { id: user.id, cookie: response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ') };
}

/** Resolves once no queued blog event of `blogId` is left pending or running (up to 20 s). */
async function untilBlogEventsRan(blogId: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const left = async () =>
      (
        await client.query<{ n: number }>(
          `select count(*)::int as n from queued_jobs where kind = 'blog-event' and state in ('pending', 'running') and payload->>'blogId' = $1`,
          [blogId],
        )
      ).rows[0]!.n;
    await expect.poll(left, { timeout: 20_000, interval: 20 }).toBe(0);
  } finally {
    await client.end();
  }
}

// Runs in the `postgres` Vitest project only (see vitest.config.ts), where TEST_DATABASE_URL is set.
describe('app processes on one Postgres', () => {
  let first: Awaited<ReturnType<typeof startAppProcess>>;
  let second: Awaited<ReturnType<typeof startAppProcess>>;
  beforeAll(async () => {
    const secret = randomBytes(32).toString('hex');
    [first, second] = [await startAppProcess(secret), await startAppProcess(secret)];
  }, 120_000);

  it('runs on a PostgreSQL server with DATABASE_URL', async () => {
    const response = await fetch(`${first.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.url },
      body: JSON.stringify({ email: 'pg@example.com', message: 'stored in Postgres' }),
    });
    expect(response.status).toBe(201);
  });

  it("the response cache: a write through one process reaches the other process's cache at once", async () => {
    const [writer, reader] = [first, second];
    // A signed-in writer on the first process creates a blog and later votes on it there.
    const { cookie } = await signUp(writer.url, 'cache');
    const form = new FormData();
    form.append('title', 'Read in one process, voted in another');
    form.append('blog', 'Counts must agree.');
    const created = await fetch(`${writer.url}/api/blogs`, { method: 'POST', headers: { origin: writer.url, cookie }, body: form });
    expect(created.status).toBe(201);
    const blog = (await created.json()) as Blog;
    // The create's blog event, run by the writer's queue soon after, drops the blog's answers in
    // every process (core/blog-event-invalidation.ts): waited for here, so that it cannot land
    // between the two reads below, which would then both miss.
    await untilBlogEventsRan(blog.id);

    // The second process caches the anonymous answer, and keeps the list's public part for a
    // signed-in reader there, whose own vote is read fresh.
    const readerCookie = (await signUp(reader.url, 'cache')).cookie;
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
  });

  it('remembered sessions: a sign-out through one process, and a suspension in the database, end the session in the other at once', async () => {
    // The second process reads the session twice: from then on it answers from memory.
    const accountOnSecond = (cookie: string) => fetch(`${second.url}/api/account`, { headers: { cookie } }).then((r) => r.status);
    const endsWithinASecond = async (cookie: string) => {
      const endedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - endedAt < 2_000) status = await accountOnSecond(cookie);
      expect(status).toBe(401);
      expect(Date.now() - endedAt).toBeLessThan(1_000);
    };

    const reader = await signUp(first.url, 'sessions');
    expect(await accountOnSecond(reader.cookie)).toBe(200);
    expect(await accountOnSecond(reader.cookie)).toBe(200);
    const out = await fetch(`${first.url}/api/auth/sign-out`, { method: 'POST', headers: { origin: first.url, cookie: reader.cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(out.status).toBe(200);
    await endsWithinASecond(reader.cookie);

    // A suspension written by anyone (here: straight into the database) reaches the memory too.
    const suspended = await signUp(first.url, 'sessions');
    expect(await accountOnSecond(suspended.cookie)).toBe(200);
    expect(await accountOnSecond(suspended.cookie)).toBe(200);
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query('update "user" set suspended_at = now() where id = $1', [suspended.id]);
    } finally {
      await client.end();
    }
    await endsWithinASecond(suspended.cookie);
  });

  // Last, after the others: the two processes the file shared.
  it('each stops on SIGTERM with exit code 0', async () => {
    for (const { server } of [first, second]) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
