import { describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import { performAction } from '../moderation/moderation.service.js';
import { call } from '../testing/auth-test-kit.js';
import { multipart } from '../testing/multipart.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { signUpUser, useSignedUpUsers, type TestUser } from '../testing/test-users.js';
import { BLOG_EVENT_JOB, blogTransition, isPublicBlog, type BlogEvent, type BlogVisibility } from './blog-events.js';

const published: BlogVisibility = { status: 'published', hidden_at: null, author_suspended_at: null };
const draft: BlogVisibility = { ...published, status: 'draft' };
const hidden: BlogVisibility = { ...published, hidden_at: new Date() };
const suspended: BlogVisibility = { ...published, author_suspended_at: new Date() };

describe('a blog’s transition, decided once', () => {
  it('is public only when published, not hidden and its author not suspended', () => {
    expect([published, draft, hidden, suspended, null].map(isPublicBlog)).toEqual([true, false, false, false, false]);
  });

  it('names the change from the states before and after', () => {
    expect(blogTransition(null, published)).toBe('published');
    expect(blogTransition(null, draft)).toBeNull();
    expect(blogTransition(draft, draft)).toBeNull();
    expect(blogTransition(draft, published)).toBe('published');
    expect(blogTransition(published, published)).toBe('edited');
    expect(blogTransition(published, draft)).toBe('unpublished');
    expect(blogTransition(published, hidden)).toBe('unpublished');
    expect(blogTransition(hidden, published)).toBe('published');
    expect(blogTransition(published, suspended)).toBe('unpublished');
    expect(blogTransition(suspended, published)).toBe('published');
    expect(blogTransition(hidden, suspended)).toBeNull();
    expect(blogTransition(published, null)).toBe('deleted');
    expect(blogTransition(draft, null)).toBe('deleted');
  });
});

/** Every path that changes what readers see records one event per blog, in its own transaction. */
describe('every write records its blog’s event', () => {
  // The queue looks for due jobs only when woken: the events are read before they run (a done job's payload is cleared).
  const t = useTestApp({ QUEUE_POLL_MS: '3600000' });
  const { author, moderator } = useSignedUpUsers(t, ['author', 'moderator']);

  /** The events recorded since `since` (a queue job id), oldest first. */
  const eventsSince = async (since: string) => {
    const rows = await t.database.db.selectFrom('queued_jobs').select(['id', 'payload']).where('kind', '=', BLOG_EVENT_JOB).where('id', '>', since as never).orderBy('id').execute();
    return rows.map((row) => row.payload as unknown as BlogEvent);
  };
  const lastJobId = async () => String((await t.database.db.selectFrom('queued_jobs').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);
  const summary = (events: BlogEvent[]) => events.map((event) => [event.blogId, event.transition, event.origin]);

  /** The events `write` recorded. */
  async function recorded(write: () => Promise<unknown>): Promise<BlogEvent[]> {
    const since = await lastJobId();
    await write();
    return eventsSince(since);
  }

  const send = async (user: TestUser, method: 'PATCH' | 'DELETE', url: string, fields?: Record<string, string>) => {
    const form = fields && (await multipart(fields));
    const response = await t.app.inject({ method, url, headers: { cookie: user.cookie, origin: TEST_PUBLIC_URL, ...form?.headers }, payload: form?.payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };

  it('records create, edit, unpublish, publish and delete by the author; a draft saved records nothing', async () => {
    let blog: Blog | undefined;
    expect(summary(await recorded(async () => (blog = await postBlog(t.app, author, { title: 'Lifecycle', blog: 'One.' }))))).toEqual([[expect.any(String), 'published', 'author']]);
    const id = blog!.id;
    expect(summary(await recorded(() => send(author, 'PATCH', `/api/blogs/${id}`, { title: 'Lifecycle', blog: 'Two.' })))).toEqual([[id, 'edited', 'author']]);
    expect(summary(await recorded(() => send(author, 'PATCH', `/api/blogs/${id}`, { title: 'Lifecycle', blog: 'Two.', status: 'draft' })))).toEqual([[id, 'unpublished', 'author']]);
    expect(await recorded(() => send(author, 'PATCH', `/api/blogs/${id}`, { title: 'Lifecycle', blog: 'Three.' }))).toEqual([]);
    expect(summary(await recorded(() => send(author, 'PATCH', `/api/blogs/${id}`, { title: 'Lifecycle', blog: 'Three.', status: 'published' })))).toEqual([[id, 'published', 'author']]);
    const [deleted] = await recorded(() => send(author, 'DELETE', `/api/blogs/${id}`));
    expect(deleted).toMatchObject({ blogId: id, transition: 'deleted', wasPublic: true, isPublic: false, userId: author.id, handle: expect.any(String) });
  });

  it('records a moderator’s hide and restore, and a suspension and its end for each public blog (none for a draft)', async () => {
    const by = { id: moderator.id, email: moderator.email, name: 'Moderator' } as never;
    const deps = { db: t.database.db, config: t.config };
    const one = await postBlog(t.app, author, { title: 'Reported', blog: 'Words.' });
    const two = await postBlog(t.app, author, { title: 'Another', blog: 'Words.' });
    await postBlog(t.app, author, { title: 'A draft of theirs', blog: 'Later.', status: 'draft' } as never);
    expect(summary(await recorded(() => performAction(deps, by, { action: 'hide', targetType: 'blog', targetId: one.id, reason: undefined })))).toEqual([[one.id, 'unpublished', 'moderator']]);
    // Hidden and then suspended: readers lose nothing more; the other public blog goes.
    expect(summary(await recorded(() => performAction(deps, by, { action: 'suspend', userId: author.id, reason: undefined })))).toEqual([[two.id, 'unpublished', 'suspension']]);
    expect(summary(await recorded(() => performAction(deps, by, { action: 'unsuspend', userId: author.id, reason: undefined })))).toEqual([[two.id, 'published', 'suspension']]);
    expect(summary(await recorded(() => performAction(deps, by, { action: 'restore', targetType: 'blog', targetId: one.id, reason: undefined })))).toEqual([[one.id, 'published', 'moderator']]);
  });

  it('records the deletion of each blog of a deleted account, public or not', async () => {
    const doomed = await signUpUser(t.app);
    const kept = await postBlog(t.app, doomed, { title: 'Going', blog: 'Soon.' });
    await postBlog(t.app, doomed, { title: 'Never seen', blog: 'Draft.', status: 'draft' } as never);
    const events = await recorded(async () => {
      const response = await call(t.app, 'DELETE', '/api/account', { password: doomed.password }, { cookie: doomed.cookie });
      expect(response.statusCode, response.body).toBe(204);
    });
    expect(events.map((event) => [event.transition, event.origin, event.wasPublic, event.userId]).sort()).toEqual([
      ['deleted', 'account-deletion', false, doomed.id],
      ['deleted', 'account-deletion', true, doomed.id],
    ]);
    expect(events.find((event) => event.wasPublic)!.blogId).toBe(kept.id);
  });
});
