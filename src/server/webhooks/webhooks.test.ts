import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogPage } from '../../shared/audit-log-schema.js';
import type { CreatedWebhook, WebhookDelivery, WebhookEvent, WebhookList } from '../../shared/webhook-schema.js';
import { blogWrites } from '../testing/blog-writes.js';
import { useTestApp, TEST_PUBLIC_URL } from '../testing/test-app.js';
import { randomIp, signUpUser, useSignedUpUsers, type TestUser } from '../testing/test-users.js';
import { startWebhookReceiver, until, type Receipt } from '../testing/webhook-receiver.js';

const SECRET = 'a-secret-of-the-receiver-0123456789';

/**
 * Webhooks end to end on one app: an administrator adds them through the API, the site's own
 * writes make the events, a loopback server receives them. Retries are quick here through the
 * configuration (QUEUE_RETRY_BASE_MS), never through sleeps.
 */
describe('webhooks', () => {
  const t = useTestApp({
    WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true',
    WEBHOOKS_MAX_ATTEMPTS: '3',
    QUEUE_RETRY_BASE_MS: '20',
    QUEUE_POLL_MS: '50',
    SESSION_CACHE_SECONDS: '0',
  });
  const users = useSignedUpUsers(t, ['admin', 'writer', 'reader']);
  const writes = blogWrites(t);
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', users.admin.id).execute();
    // `/flaky` fails twice, then takes it; `/down` never does.
    receiver = await startWebhookReceiver((path, count) => {
      if (path === '/flaky') return count <= 2 ? { status: 503, body: 'busy' } : { status: 200, body: 'got it' };
      if (path === '/down') return { status: 500, body: `broken ${'x'.repeat(2000)}` };
      return { status: 200, body: 'thanks' };
    });
  });
  afterAll(() => receiver?.close());

  const call = (user: TestUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as never, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, remoteAddress: randomIp() });

  const addWebhook = async (event: WebhookEvent, path: string, secret: string | undefined = SECRET) => {
    const response = await call(users.admin, 'POST', '/api/admin/webhooks', { event, targetUrl: `${receiver.base}${path}`, secret });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedWebhook>();
  };
  const list = async () => (await call(users.admin, 'GET', '/api/admin/webhooks')).json<WebhookList>();
  const deliveriesOf = async (id: string) => (await list()).items.find((webhook) => webhook.id === id)?.deliveries ?? [];
  const body = (receipt: Receipt) => JSON.parse(receipt.body) as Record<string, { current: Record<string, unknown>; previous: Record<string, unknown> }> & { test?: boolean };

  it('answers 404 to everyone but the owner and administrators', async () => {
    for (const user of [null, users.reader]) {
      expect((await call(user, 'GET', '/api/admin/webhooks')).statusCode).toBe(404);
      expect((await call(user, 'POST', '/api/admin/webhooks', { event: 'post.published', targetUrl: `${receiver.base}/x` })).statusCode).toBe(404);
      expect((await call(user, 'DELETE', '/api/admin/webhooks/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await call(user, 'POST', '/api/admin/webhooks/00000000-0000-4000-8000-000000000000/test')).statusCode).toBe(404);
      expect((await call(user, 'GET', '/api/admin/audit-log')).statusCode).toBe(404);
    }
  });

  it('shows the secret once: masked in the list, in the audit log, never whole', async () => {
    const created = await addWebhook('post.published', '/secretive');
    expect(created.secret).toBe(SECRET);
    expect(created.webhook.secretMasked).toBe('••••••••6789');
    const listed = await call(users.admin, 'GET', '/api/admin/webhooks');
    expect(listed.body).not.toContain(SECRET);
    const audit = await call(users.admin, 'GET', '/api/admin/audit-log');
    expect(audit.body).not.toContain(SECRET);
    const entry = audit.json<AuditLogPage>().items.find((item) => item.subject === created.webhook.id)!;
    expect(entry).toMatchObject({ actor: users.admin.email, action: 'webhook.create', before: null, after: { event: 'post.published', targetUrl: `${receiver.base}/secretive`, secret: '••••••••6789' } });
    // An empty secret: one is made, and shown this once.
    const made = await addWebhook('post.deleted', '/made', '');
    expect(made.secret).toMatch(/^[0-9a-f]{64}$/);
    for (const id of [created.webhook.id, made.webhook.id]) expect((await call(users.admin, 'DELETE', `/api/admin/webhooks/${id}`)).statusCode).toBe(204);
    const removed = (await call(users.admin, 'GET', '/api/admin/audit-log')).json<AuditLogPage>().items.find((item) => item.subject === created.webhook.id && item.action === 'webhook.delete');
    expect(removed).toMatchObject({ actor: users.admin.email, before: { event: 'post.published', secret: '••••••••6789' }, after: null });
    expect((await list()).items.map((webhook) => webhook.id)).not.toContain(created.webhook.id);
  });

  it('refuses bad input: an unknown event, a URL that is not http(s), a short secret', async () => {
    for (const payload of [
      { event: 'post.liked', targetUrl: `${receiver.base}/x` },
      { event: 'post.published', targetUrl: 'ftp://127.0.0.1/x' },
      { event: 'post.published', targetUrl: `${receiver.base}/x`, secret: 'short' },
    ]) expect((await call(users.admin, 'POST', '/api/admin/webhooks', payload)).statusCode).toBe(400);
  });

  it('sends each blog event in Ghost’s shape, signed as Ghost signs: published, edited, unpublished, deleted', async () => {
    const hooks = {
      published: await addWebhook('post.published', '/published'),
      edited: await addWebhook('post.published.edited', '/edited'),
      unpublished: await addWebhook('post.unpublished', '/unpublished'),
      deleted: await addWebhook('post.deleted', '/deleted'),
    };
    // Each payload is built when the event is heard, after the write: each step waits for its delivery.
    const heard = (path: string) => until(() => receiver.at(path).length === 1, `the delivery to ${path}`);
    const blog = await writes.create(users.writer, { title: 'Hooked', blog: 'First words.' });
    await heard('/published');
    await writes.edit(users.writer, blog.id, { title: 'Hooked again', blog: 'Second words.' });
    await heard('/edited');
    await writes.edit(users.writer, blog.id, { title: 'Hooked again', blog: 'Second words.', status: 'draft' });
    await heard('/unpublished');
    await writes.remove(users.writer, blog.id);
    await heard('/deleted');
    await t.settled();

    const published = receiver.at('/published')[0]!;
    // The signature, computed here on its own: HMAC-SHA256 of the body followed by the time.
    const [, hex, time] = /^sha256=([0-9a-f]{64}), t=(\d+)$/.exec(String(published.headers['x-webhook-signature']))!;
    expect(hex).toBe(createHmac('sha256', SECRET).update(published.body + time).digest('hex'));
    expect(Math.abs(Date.now() - Number(time))).toBeLessThan(60_000);
    expect(published.headers['content-type']).toBe('application/json');
    expect(published.headers['x-webhook-event']).toBe('post.published');
    const [delivery] = await deliveriesOf(hooks.published.webhook.id);
    expect(published.headers['x-webhook-id']).toBe(delivery!.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastHttpStatus: 200, lastResponse: 'thanks' });

    // Its readable address (issue 58), which moves with the title.
    const url = `${TEST_PUBLIC_URL}/blog/${blog.slug}`;
    expect(body(published)).toEqual({
      post: { current: expect.objectContaining({ id: blog.id, title: 'Hooked', blog: 'First words.', author: users.writer.email, status: 'published', url, myVote: null }), previous: {} },
    });
    expect(body(published).post!.current.html).toContain('First words.');
    expect(body(receiver.at('/edited')[0]!)).toEqual({ post: { current: expect.objectContaining({ id: blog.id, title: 'Hooked again', status: 'published', url: expect.stringMatching(new RegExp(`^${TEST_PUBLIC_URL}/blog/hooked-again(-\\d+)?$`)) }), previous: {} } });
    expect(body(receiver.at('/unpublished')[0]!)).toEqual({ post: { current: expect.objectContaining({ id: blog.id, status: 'draft' }), previous: { status: 'published' } } });
    expect(body(receiver.at('/deleted')[0]!)).toEqual({ post: { current: {}, previous: { id: blog.id, userId: users.writer.id, handle: expect.any(String) } } });
    for (const hook of Object.values(hooks)) await call(users.admin, 'DELETE', `/api/admin/webhooks/${hook.webhook.id}`);
  });

  it('sends comment.added and member.added', async () => {
    const comments = await addWebhook('comment.added', '/comments');
    const members = await addWebhook('member.added', '/members');
    const blog = await writes.create(users.writer, { title: 'Talk to me' });
    const comment = await call(users.reader, 'POST', `/api/blogs/${blog.id}/comments`, { body: 'Nice *one*.' });
    expect(comment.statusCode, comment.body).toBe(201);
    const newcomer = await signUpUser(t.app);
    await until(() => receiver.at('/comments').length === 1 && receiver.at('/members').length === 1, 'the comment’s and the account’s deliveries');
    expect(body(receiver.at('/comments')[0]!)).toEqual({
      comment: {
        current: expect.objectContaining({ blogId: blog.id, author: users.reader.email, body: 'Nice *one*.', html: expect.stringContaining('<em>one</em>'), post: { id: blog.id, title: 'Talk to me', url: `${TEST_PUBLIC_URL}/blog/${blog.slug}` } }),
        previous: {},
      },
    });
    expect(body(receiver.at('/members')[0]!)).toEqual({ member: { current: expect.objectContaining({ id: newcomer.id, email: newcomer.email, handle: expect.any(String) }), previous: {} } });
    for (const hook of [comments, members]) await call(users.admin, 'DELETE', `/api/admin/webhooks/${hook.webhook.id}`);
  });

  it('retries a failing target with backoff until it takes the delivery', async () => {
    const flaky = await addWebhook('post.published', '/flaky');
    await writes.create(users.writer, { title: 'Try again' });
    await until(async () => (await deliveriesOf(flaky.webhook.id))[0]?.status === 'delivered', 'the third attempt');
    const receipts = receiver.at('/flaky');
    expect(receipts).toHaveLength(3);
    // The same delivery each time: the same id and body, a fresh signature.
    expect(new Set(receipts.map((receipt) => receipt.headers['x-webhook-id'])).size).toBe(1);
    expect(new Set(receipts.map((receipt) => receipt.body)).size).toBe(1);
    expect((await deliveriesOf(flaky.webhook.id))[0]).toMatchObject({ status: 'delivered', attempts: 3, lastHttpStatus: 200, lastResponse: 'got it' });
    await call(users.admin, 'DELETE', `/api/admin/webhooks/${flaky.webhook.id}`);
  });

  it('gives up after the last attempt: the delivery shows failed, with the last answer', async () => {
    const down = await addWebhook('post.published', '/down');
    await writes.create(users.writer, { title: 'Nobody home' });
    await until(async () => (await deliveriesOf(down.webhook.id))[0]?.status === 'failed', 'the delivery to fail');
    expect(receiver.at('/down')).toHaveLength(3);
    const [failed] = await deliveriesOf(down.webhook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, lastHttpStatus: 500, deliveredAt: null });
    expect(failed!.lastResponse).toMatch(/^broken x+$/);
    expect(failed!.lastResponse!.length).toBe(500);
    await t.settled();
    const job = await t.database.db.selectFrom('queued_jobs').select(['state', 'attempts']).where('key', '=', `webhook-delivery:${failed!.id}`).executeTakeFirstOrThrow();
    expect(job).toEqual({ state: 'failed', attempts: 3 });
    await call(users.admin, 'DELETE', `/api/admin/webhooks/${down.webhook.id}`);
  });

  it('sends a test delivery of the webhook’s event on request', async () => {
    const hook = await addWebhook('member.added', '/test');
    const answer = await call(users.admin, 'POST', `/api/admin/webhooks/${hook.webhook.id}/test`);
    expect(answer.statusCode, answer.body).toBe(202);
    const queued = answer.json<WebhookDelivery>();
    expect(queued).toMatchObject({ event: 'member.added', status: 'pending', attempts: 0 });
    await until(async () => (await deliveriesOf(hook.webhook.id))[0]?.status === 'delivered', 'the test delivery');
    const [receipt] = receiver.at('/test');
    expect(receipt!.headers['x-webhook-id']).toBe(queued.id);
    expect(body(receipt!)).toMatchObject({ test: true, member: { current: expect.objectContaining({ email: 'someone@example.com' }), previous: {} } });
    await call(users.admin, 'DELETE', `/api/admin/webhooks/${hook.webhook.id}`);
  });
});
