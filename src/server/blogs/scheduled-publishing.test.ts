import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog, BlogPage } from '../../shared/blog-schema.js';
import { buildApp } from '../app.js';
import { multipart } from '../testing/multipart.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { signUpUser, type TestUser } from '../testing/test-users.js';

/** A clock the test moves: the queue decides with it which jobs are due. */
function fakeClock() {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => (offsetMs += ms) };
}

const HOUR = 3_600_000;

describe('scheduled publishing', () => {
  const clock = fakeClock();
  let t: TestApp;
  let writer: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ QUEUE_POLL_MS: '50' }, { now: clock.now });
    writer = await signUpUser(t.app);
  });
  afterAll(() => t.close());

  const send = async (method: 'POST' | 'PATCH', url: string, fields: Record<string, string>, app = t.app) => {
    const form = await multipart(fields);
    return app.inject({ method, url, headers: { cookie: writer.cookie, origin: TEST_PUBLIC_URL, ...form.headers }, payload: form.payload });
  };
  const schedule = async (title: string, at: Date, fields: Record<string, string> = {}) => {
    const response = await send('POST', '/api/blogs', { title, blog: 'Words for later.', publishAt: at.toISOString(), ...fields });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Blog>();
  };
  const publicIds = async () => (await t.app.inject({ method: 'GET', url: '/api/blogs?sort=new' })).json<BlogPage>().items.map((blog) => blog.id);
  const statusOf = async (id: string) => (await t.database.db.selectFrom('blogs').select(['status', 'publish_at']).where('id', '=', id).executeTakeFirstOrThrow());

  const tagCount = async (name: string) =>
    (await t.database.db.selectFrom('tag_counts').select('blogs').where('tag', '=', name).executeTakeFirst())?.blogs ?? 0;

  it('stays private until its time, then becomes public once, in lists and its tag, with the publish hook fired once', async () => {
    const at = new Date(Date.now() + 2 * HOUR);
    const tag = `monday-${Math.random().toString(36).slice(2, 8)}`;
    const blog = await schedule('Monday at nine', at, { tags: tag });
    expect(blog).toMatchObject({ status: 'draft', publishAt: at.toISOString(), tags: [tag] });
    expect(await publicIds()).not.toContain(blog.id);
    expect(await tagCount(tag)).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` })).statusCode).toBe(404);

    clock.advance(HOUR);
    t.app.queue.wake();
    await t.settled();
    expect((await statusOf(blog.id)).status).toBe('draft');

    clock.advance(HOUR + 1000);
    t.app.queue.wake();
    await expect.poll(() => statusOf(blog.id).then((row) => row.status), { timeout: 10_000 }).toBe('published');
    expect((await statusOf(blog.id)).publish_at).toBeNull();
    expect(await publicIds()).toContain(blog.id);
    expect(await tagCount(tag)).toBe(1);
    // The publish was the blog's event (origin: the schedule), which subscribers' mail heard once.
    await t.settled();
    const hooks = await t.database.db.selectFrom('queued_jobs').select('key').where('key', '=', `blog-published:${blog.id}`).execute();
    expect(hooks).toHaveLength(1);
  });

  it('rescheduling and unscheduling: an old job publishes nothing; a time already past publishes at once', async () => {
    const blog = await schedule('Moved', new Date(clock.now().getTime() + HOUR));
    const later = new Date(clock.now().getTime() + 3 * HOUR);
    const moved = await send('PATCH', `/api/blogs/${blog.id}`, { title: 'Moved', blog: 'Words for later.', publishAt: later.toISOString() });
    expect(moved.json<Blog>().publishAt).toBe(later.toISOString());
    clock.advance(2 * HOUR);
    t.app.queue.wake();
    await t.settled();
    // The first job came due and did nothing: the blog's time is now the later one.
    await expect.poll(async () => (await t.database.db.selectFrom('queued_jobs').select('state').where('key', 'like', `publish-scheduled:${blog.id}:%`).where('run_at', '<', later).executeTakeFirstOrThrow()).state).toBe('done');
    expect((await statusOf(blog.id)).status).toBe('draft');

    // Unscheduled: it stays a draft even when its old time comes.
    const unscheduled = await send('PATCH', `/api/blogs/${blog.id}`, { title: 'Moved', blog: 'Words for later.', publishAt: '' });
    expect(unscheduled.json<Blog>()).toMatchObject({ status: 'draft', publishAt: null });
    clock.advance(2 * HOUR);
    t.app.queue.wake();
    await t.settled();
    expect(await statusOf(blog.id)).toEqual({ status: 'draft', publish_at: null });

    const past = await send('PATCH', `/api/blogs/${blog.id}`, { title: 'Moved', blog: 'Words for later.', publishAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.json<Blog>()).toMatchObject({ status: 'published', publishAt: null });
  });

  it('refuses a schedule without a title or content, too far ahead, with status=published, or on a published blog', async () => {
    const at = new Date(Date.now() + HOUR).toISOString();
    expect((await send('POST', '/api/blogs', { title: '', blog: 'x', publishAt: at })).statusCode).toBe(400);
    expect((await send('POST', '/api/blogs', { title: 'x', blog: 'y', publishAt: 'next monday' })).json()).toMatchObject({ message: 'The time to publish must be a date and time.' });
    expect((await send('POST', '/api/blogs', { title: 'x', blog: 'y', publishAt: new Date(Date.now() + 400 * 24 * HOUR).toISOString() })).statusCode).toBe(400);
    expect((await send('POST', '/api/blogs', { title: 'x', blog: 'y', publishAt: at, status: 'published' })).statusCode).toBe(400);
    const published = (await send('POST', '/api/blogs', { title: 'Out already', blog: 'y' })).json<Blog>();
    expect((await send('PATCH', `/api/blogs/${published.id}`, { title: 'Out already', blog: 'y', publishAt: at })).json()).toMatchObject({ message: 'This blog is already published.' });
  });

  it('survives a restart: the schedule is in the database, and the next app publishes it', async () => {
    const blog = await schedule('After a restart', new Date(clock.now().getTime() + HOUR));
    // The first app stops (its workers with it); another on the same database, as after a
    // restart, whose clock has reached the time, publishes it.
    await t.app.queue.stop();
    const later = fakeClock();
    later.advance(clock.now().getTime() - Date.now() + HOUR + 1000);
    const next = await buildApp({ config: t.config, database: t.database, logger: false, now: later.now });
    await next.ready();
    try {
      await expect.poll(() => statusOf(blog.id).then((row) => row.status), { timeout: 10_000 }).toBe('published');
    } finally {
      await next.close();
    }
  });
});
