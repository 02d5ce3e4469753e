import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookList } from '../../shared/webhook-schema.js';
import { waitForMail } from '../testing/auth-test-kit.js';
import { startFloodServer } from '../testing/flood-server.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';
import { until } from '../testing/webhook-receiver.js';
import { ANSWER_KEPT_CHARS, queueDeliveries } from './webhook-delivery.js';

const MB = 1024 * 1024;

/**
 * Issue 56: targets that misbehave on purpose. One streams a gigabyte in answer to every
 * delivery; one accepts the connection and never answers. Neither may cost the server its memory,
 * nor hold up the mail people wait for.
 */
describe('webhooks: hostile targets', () => {
  const t = useTestApp({ WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true', WEBHOOKS_MAX_ATTEMPTS: '1', QUEUE_POLL_MS: '50', SESSION_CACHE_SECONDS: '0' });
  const { admin } = useSignedUpUsers(t, ['admin']);
  let flood: Awaited<ReturnType<typeof startFloodServer>>;
  let dead: Awaited<ReturnType<typeof startFloodServer>>;
  beforeAll(async () => {
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', admin.id).execute();
    flood = await startFloodServer();
    dead = await startFloodServer({ neverAnswer: true });
  });
  afterAll(async () => {
    await Promise.all([flood?.close(), dead?.close()]);
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as never, headers: { origin: TEST_PUBLIC_URL, cookie: admin.cookie }, remoteAddress: randomIp() });

  it('keeps the first 500 characters of a gigabyte answer and reads no more: three test sends, memory flat', async () => {
    const added = await call('POST', '/api/admin/webhooks', { event: 'post.deleted', targetUrl: `${flood.base}/hook` });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json<{ webhook: { id: string } }>().webhook.id;
    const sendTests = async (count: number) => {
      const sent: string[] = [];
      for (let i = 0; i < count; i++) {
        const answer = await call('POST', `/api/admin/webhooks/${id}/test`);
        expect(answer.statusCode).toBe(202);
        sent.push(answer.json<WebhookDelivery>().id);
      }
      const deliveries = async () => (await call('GET', '/api/admin/webhooks')).json<WebhookList>().items.find((webhook) => webhook.id === id)!.deliveries.filter((delivery) => sent.includes(delivery.id));
      await until(async () => (await deliveries()).filter((delivery) => delivery.status === 'delivered').length === count, `${count} deliveries`);
      return deliveries();
    };
    // One send first: the modules and database pages it touches the first time are not what is measured.
    await sendTests(1);
    // The delivery is done once its answer's first characters are read; the target hears its socket
    // close a moment later. Counted before, that close would pass for one of the three below.
    await expect.poll(() => flood.stats.closed, { timeout: 5000 }).toBe(flood.stats.requests);
    const before = { rss: process.memoryUsage.rss(), written: flood.stats.written, closed: flood.stats.closed };
    const started = Date.now();
    const delivered = await sendTests(3);
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const delivery of delivered) expect(delivery).toMatchObject({ lastHttpStatus: 200, lastResponse: 'a'.repeat(ANSWER_KEPT_CHARS) });
    // Each answer is cut (its socket closed) after a few kilobytes read: what the sockets took is the
    // kernel's buffers, not the 3 GB offered.
    await expect.poll(() => flood.stats.closed - before.closed, { timeout: 5000 }).toBe(3);
    expect(flood.stats.written - before.written).toBeLessThan(3 * 16 * MB);
    expect(process.memoryUsage.rss() - before.rss).toBeLessThan(100 * MB);
  });

  it('sends a sign-in link within a second while a hundred deliveries wait on a target that never answers', async () => {
    const askLink = async (email: string) => {
      const asked = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/magic-link', payload: { email }, headers: { origin: TEST_PUBLIC_URL }, remoteAddress: randomIp() });
      expect(asked.statusCode, asked.body).toBe(200);
      await waitForMail(t, email, /sign-in link/);
    };
    // A process's first mail loads the mail's modules (about a second here): not what is measured.
    await askLink(uniqueEmail('warm'));
    const rows = Array.from({ length: 100 }, () => ({ id: randomUUID(), event: 'post.published', target_url: `${dead.base}/hook`, secret: 's'.repeat(32) }));
    await t.database.db.insertInto('webhooks').values(rows).execute();
    const queued = await queueDeliveries({ db: t.database.db, maxAttempts: 1 }, 'post.published', randomUUID(), async () => ({ post: { current: { title: 'Waiting' }, previous: {} } }));
    expect(queued).toBe(100);
    t.app.queue.wake();
    // Every worker deliveries may have is held by the dead target now.
    await until(() => dead.stats.requests >= t.config.queue.concurrency, 'the deliveries to reach the dead target');

    const started = Date.now();
    await askLink(uniqueEmail('lane'));
    expect(Date.now() - started).toBeLessThan(1000);
    // The deliveries were still waiting all along: none had an answer to record.
    expect(dead.stats.requests).toBe(t.config.queue.concurrency);
    const pending = await t.database.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<string>().as('count')).where('status', '=', 'pending').executeTakeFirstOrThrow();
    expect(Number(pending.count)).toBe(100);
  });
});
