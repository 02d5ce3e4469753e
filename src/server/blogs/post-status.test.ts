import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { Role } from '../../shared/role-schema.js';
import type { CreatedWebhook } from '../../shared/webhook-schema.js';
import { BLOG_EVENT_JOB } from '../core/blog-events.js';
import { mailsTo, waitForMail } from '../testing/auth-test-kit.js';
import { blogWrites } from '../testing/blog-writes.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { startWebhookReceiver, until } from '../testing/webhook-receiver.js';

/**
 * Issue 59's review: Posts' 'Publish' and 'Unpublish' change the status alone
 * (`POST /api/blogs/:id/publish`, `/unpublish`), by the rule an edit's status follows, with the one
 * visibility event: counted in the queue, and heard once by a webhook on loopback.
 */
describe('publishing and unpublishing from Posts', () => {
  const t = useTestApp({ WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true', QUEUE_POLL_MS: '50', SESSION_CACHE_SECONDS: '0' });
  const writes = blogWrites(t);
  const ROLES = ['administrator', 'editor', 'author', 'contributor', 'reader'] as const satisfies readonly Role[];
  const as = {} as Record<(typeof ROLES)[number], TestUser>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  const request = (user: TestUser | null, method: 'POST' | 'GET', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, remoteAddress: randomIp(), ...(payload ? { payload } : {}) });
  const publish = (user: TestUser | null, id: string) => request(user, 'POST', `/api/blogs/${id}/publish`);
  const unpublish = (user: TestUser | null, id: string) => request(user, 'POST', `/api/blogs/${id}/unpublish`);

  /** The last job's id: the blog events a write records are those queued after it (a done job's payload is cleared, so they are counted, not read). */
  const lastJobId = async () => Number((await t.database.db.selectFrom('queued_jobs').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);
  /** How many blog events `write` recorded (this file's writes run one at a time). */
  const eventsRecordedBy = async (write: () => Promise<unknown>) => {
    const since = await lastJobId();
    await write();
    const rows = await t.database.db.selectFrom('queued_jobs').select('id').where('kind', '=', BLOG_EVENT_JOB).where('id', '>', since as never).execute();
    return rows.length;
  };
  const bodyOf = async (id: string) => (await t.database.db.selectFrom('blogs').select(['title', 'body', 'html', 'tags']).where('id', '=', id).executeTakeFirstOrThrow());

  beforeAll(async () => {
    const users = await Promise.all(ROLES.map(() => signUpUser(t.app)));
    for (const [index, role] of ROLES.entries()) {
      as[role] = users[index]!;
      await t.database.db.updateTable('user').set({ role }).where('id', '=', users[index]!.id).execute();
    }
    receiver = await startWebhookReceiver();
    for (const [event, path] of [
      ['post.published', '/published'],
      ['post.unpublished', '/unpublished'],
      ['post.published.edited', '/edited'],
    ] as const) {
      const response = await request(as.administrator, 'POST', '/api/admin/webhooks', { event, targetUrl: `${receiver.base}${path}` });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<CreatedWebhook>().webhook.event).toBe(event);
    }
  });
  afterAll(() => receiver?.close());

  it('an editor publishes a submitted draft and unpublishes it: the status alone, one event and one webhook delivery each, the writer mailed', async () => {
    const draft = await writes.create(as.contributor, { title: 'Status alone', blog: 'Words *as written*.', tags: 'status', status: 'draft' });
    expect((await request(as.contributor, 'POST', `/api/blogs/${draft.id}/submit`)).statusCode).toBe(200);
    const text = await bodyOf(draft.id);

    let published!: Awaited<ReturnType<typeof publish>>;
    expect(await eventsRecordedBy(async () => (published = await publish(as.editor, draft.id)))).toBe(1);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json<Blog>()).toMatchObject({ id: draft.id, status: 'published', submittedAt: null, userId: as.contributor.id });
    expect(await bodyOf(draft.id)).toEqual(text);
    await until(() => receiver.at('/published').some((receipt) => receipt.body.includes(draft.id)), 'the published webhook');
    expect((await waitForMail(t, as.contributor.email, /published/)).text).toContain(`${TEST_PUBLIC_URL}/blog/${published.json<Blog>().slug}`);

    // Asked again, nothing changes: no event.
    expect(await eventsRecordedBy(async () => expect((await publish(as.editor, draft.id)).statusCode).toBe(200))).toBe(0);
    let unpublished!: Awaited<ReturnType<typeof unpublish>>;
    expect(await eventsRecordedBy(async () => (unpublished = await unpublish(as.editor, draft.id)))).toBe(1);
    expect(unpublished.statusCode, unpublished.body).toBe(200);
    expect(unpublished.json<Blog>()).toMatchObject({ status: 'draft' });
    expect(await eventsRecordedBy(async () => expect((await unpublish(as.editor, draft.id)).statusCode).toBe(200))).toBe(0);
    expect(await bodyOf(draft.id)).toEqual(text);
    await until(() => receiver.at('/unpublished').some((receipt) => receipt.body.includes(draft.id)), 'the unpublished webhook');
    await t.settled();
    const deliveries = (path: string) => receiver.at(path).filter((receipt) => receipt.body.includes(draft.id)).length;
    expect([deliveries('/published'), deliveries('/unpublished'), deliveries('/edited')]).toEqual([1, 1, 0]);
    expect((await mailsTo(t, as.contributor.email)).filter((mail) => /published/.test(mail.subject))).toHaveLength(1);
  });

  it('refuses a contributor someone else’s blog (404, as a blog they may not change), their own publish (403), a reader (403), the signed out (401)', async () => {
    const others = await writes.create(as.author, { title: 'Not the contributor’s', blog: 'Words.' });
    const othersDraft = await writes.create(as.author, { title: 'Not theirs either', blog: 'Words.', status: 'draft' });
    const own = await writes.create(as.contributor, { title: 'Mine', blog: 'Words.', status: 'draft' });
    const since = await lastJobId();
    for (const id of [others.id, othersDraft.id]) {
      expect((await publish(as.contributor, id)).statusCode).toBe(404);
      expect((await unpublish(as.contributor, id)).statusCode).toBe(404);
    }
    expect((await publish(as.contributor, own.id)).statusCode).toBe(403);
    expect((await publish(as.reader, othersDraft.id)).statusCode).toBe(403);
    expect((await publish(null, othersDraft.id)).statusCode).toBe(401);
    expect((await publish(as.editor, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    // Nothing changed, nothing was recorded.
    const statusOf = async (id: string) => (await t.database.db.selectFrom('blogs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect([await statusOf(others.id), await statusOf(othersDraft.id), await statusOf(own.id)]).toEqual(['published', 'draft', 'draft']);
    expect(await t.database.db.selectFrom('queued_jobs').select('id').where('kind', '=', BLOG_EVENT_JOB).where('id', '>', since as never).execute()).toEqual([]);
  });

  it('an author publishes and unpublishes their own, not someone else’s; a draft without its text is not published', async () => {
    const own = await writes.create(as.author, { title: 'Own words', blog: 'Words.', status: 'draft' });
    expect((await publish(as.author, own.id)).json<Blog>().status).toBe('published');
    expect((await unpublish(as.author, own.id)).json<Blog>().status).toBe('draft');
    const editors = await writes.create(as.editor, { title: 'The editor’s', blog: 'Words.' });
    expect((await unpublish(as.author, editors.id)).statusCode).toBe(404);
    const empty = await writes.create(as.author, { title: 'No content yet', blog: '', status: 'draft' });
    expect((await publish(as.author, empty.id)).statusCode).toBe(400);
  });

  it('documents the status routes and the Author filter’s list in OpenAPI, beside their neighbours', async () => {
    const paths = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> }>().paths;
    for (const [path, method] of [
      ['/api/blogs/{id}/publish', 'post'],
      ['/api/blogs/{id}/unpublish', 'post'],
      ['/api/posts/authors', 'get'],
    ] as const) expect(paths[path]?.[method], path).toMatchObject({ tags: ['blogs'], summary: expect.any(String) });
  });
});
