import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import { multipart } from '../testing/multipart.js';
import { createTestApp, startSecondApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { signUpUser } from '../testing/test-users.js';

// Runs in the `postgres` Vitest project only: two apps, each with its own pool and queue workers,
// as two processes on one Postgres server; both clocks reach the time at once.
describe('a scheduled blog with two app processes', () => {
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  let t: TestApp;
  let second: Awaited<ReturnType<typeof startSecondApp>>;
  beforeAll(async () => {
    t = await createTestApp({ QUEUE_POLL_MS: '20' }, { now });
    second = await startSecondApp(t, { now });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('is published exactly once, and its publish hook fires once', async () => {
    const writer = await signUpUser(t.app);
    const blogs: Blog[] = [];
    for (let i = 0; i < 10; i++) {
      const form = await multipart({ title: `Together ${i}`, blog: 'At the same minute.', publishAt: new Date(Date.now() + 3_600_000).toISOString() });
      const response = await t.app.inject({ method: 'POST', url: '/api/blogs', headers: { cookie: writer.cookie, origin: TEST_PUBLIC_URL, ...form.headers }, payload: form.payload });
      blogs.push(response.json<Blog>());
    }
    offsetMs = 3_600_000 + 1000;
    t.app.queue.wake();
    second.app.queue.wake();
    const ids = blogs.map((blog) => blog.id);
    await expect
      .poll(async () => (await t.database.db.selectFrom('blogs').select('id').where('id', 'in', ids).where('status', '=', 'published').execute()).length, { timeout: 15_000 })
      .toBe(10);
    // Each publish is the blog's event, whose subscription consumer queues the hook: once per blog, whichever process ran it.
    await t.settled();
    const hooks = await t.database.db.selectFrom('queued_jobs').select(['key', 'attempts']).where('kind', '=', 'blog-published').where('key', 'in', ids.map((id) => `blog-published:${id}`)).execute();
    expect(hooks).toHaveLength(10);
    const events = await t.database.db.selectFrom('queued_jobs').select('state').where('kind', '=', 'blog-event').execute();
    expect(events.filter((job) => job.state === 'done')).toHaveLength(10);
    const publishes = await t.database.db.selectFrom('queued_jobs').select(['state', 'attempts']).where('kind', '=', 'publish-scheduled').execute();
    expect(publishes.every((job) => job.state === 'done' && job.attempts === 1)).toBe(true);
  });
});
