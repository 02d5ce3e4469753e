import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookList } from '../../shared/webhook-schema.js';
import { useTestApp, TEST_PUBLIC_URL } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers } from '../testing/test-users.js';
import { startWebhookReceiver, until } from '../testing/webhook-receiver.js';

/** Without WEBHOOKS_ALLOW_PRIVATE_ADDRESS (the default), a private target is refused when added and when delivered to. */
describe('webhooks to private addresses', () => {
  const t = useTestApp({ SESSION_CACHE_SECONDS: '0', QUEUE_POLL_MS: '50' });
  const { admin } = useSignedUpUsers(t, ['admin']);
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  beforeAll(async () => {
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', admin.id).execute();
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver?.close());
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as never, headers: { origin: TEST_PUBLIC_URL, cookie: admin.cookie }, remoteAddress: randomIp() });

  it('refuses to add a loopback, private or link-local target', async () => {
    for (const targetUrl of [`${receiver.base}/hook`, 'http://localhost:8080/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://[::1]/hook', 'http://2130706433/hook']) {
      const response = await call('POST', '/api/admin/webhooks', { event: 'post.published', targetUrl });
      expect(response.statusCode, targetUrl).toBe(400);
      expect(response.json()).toMatchObject({ error: 'TARGET_NOT_PUBLIC' });
    }
    expect((await call('GET', '/api/admin/webhooks')).json<WebhookList>().items).toEqual([]);
  });

  it('refuses, without retrying, to deliver to a target that is private when it is sent (a name that changed its address)', async () => {
    // As if the target had resolved to a public address when added: the row is written directly.
    const id = randomUUID();
    await t.database.db.insertInto('webhooks').values({ id, event: 'post.published', target_url: `${receiver.base}/hook`, secret: 'x'.repeat(32) }).execute();
    expect((await call('POST', `/api/admin/webhooks/${id}/test`)).statusCode).toBe(202);
    const delivery = async () => (await call('GET', '/api/admin/webhooks')).json<WebhookList>().items[0]!.deliveries[0]!;
    await until(async () => (await delivery()).status === 'failed', 'the refusal');
    expect(await delivery()).toMatchObject({ status: 'failed', attempts: 1, lastHttpStatus: null, lastResponse: expect.stringMatching(/^Refused: 127\.0\.0\.1 is not a public address/) });
    expect(receiver.receipts).toEqual([]);
  });
});
