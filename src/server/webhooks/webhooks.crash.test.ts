// test-plan: PGlite only (the servers it starts and kills run on an embedded database of their own)
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { multipart } from '../testing/multipart.js';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../testing/server-process.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import { until } from '../testing/webhook-receiver.js';

const AUTH_SECRET = 'c'.repeat(64);
const BLOGS = 3;

/**
 * Exactly once across kill -9 (docs/webhooks.md): a process killed after the writes' commit and
 * before any delivery, and another killed while the receiver holds its requests, lose nothing; and
 * no delivery is answered 2xx twice. The only repeat a receiver may see is a request that was in
 * flight when the process died, sent again with the same `X-Webhook-Id`.
 */
describe('webhooks across kill -9', () => {
  it('every blog published is delivered, none acknowledged twice', { timeout: 180_000 }, async () => {
    // The receiver holds every request while `holding`, and answers 200 once it is not.
    let holding = true;
    const held: ServerResponse[] = [];
    const received: Array<{ id: string; answered: boolean }> = [];
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const id = String(request.headers['x-webhook-id']);
        if (holding) {
          received.push({ id, answered: false });
          held.push(response);
          return;
        }
        received.push({ id, answered: true });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

    const dataDir = migratedDataDir('blog-crash-webhooks-');
    const database = await openDatabase({ dataDir });
    const [writer] = await (async () => {
      try {
        await migrateToLatest(database.db);
        await database.db.insertInto('webhooks').values({ id: randomUUID(), event: 'post.published', target_url: target, secret: 's'.repeat(32) }).execute();
        return await createSignedInUsers({ db: database.db, authSecret: AUTH_SECRET }, 1);
      } finally {
        await database.close();
      }
    })();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      AUTH_SECRET,
      QUEUE_POLL_MS: '100',
      QUEUE_RETRY_BASE_MS: '100',
      WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true',
      FEDERATION: 'false',
      IMAGE_BACKFILL_ON_START: 'false',
    };

    // 1. The writes commit, no job runs, the process dies.
    const first = startServer({ ...env, QUEUE_CONCURRENCY: '0' });
    await waitForHealth(port);
    const blogIds: string[] = [];
    for (let i = 0; i < BLOGS; i++) {
      const form = await multipart({ title: `Crash ${i}`, blog: 'Words.' });
      const created = await fetch(`${base}/api/blogs`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, origin: base, cookie: writer!.cookie } });
      expect(created.status).toBe(201);
      blogIds.push(((await created.json()) as { id: string }).id);
    }
    first.child.kill('SIGKILL');
    await first.exited;
    expect(received).toHaveLength(0);

    // 2. The events run and the deliveries start; the process dies while the receiver holds them.
    const second = startServer(env);
    await until(() => received.length > 0, 'a delivery to arrive', 60_000);
    second.child.kill('SIGKILL');
    await second.exited;
    const inFlight = new Set(received.map((receipt) => receipt.id));
    for (const response of held.splice(0)) response.destroy();

    // 3. The restart delivers the rest, and again what was in flight (same id).
    holding = false;
    const third = startServer(env);
    await waitForHealth(port);
    await until(() => new Set(received.filter((receipt) => receipt.answered).map((receipt) => receipt.id)).size === BLOGS, 'every delivery', 60_000);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    await new Promise((resolve) => server.close(resolve));

    const answered = received.filter((receipt) => receipt.answered).map((receipt) => receipt.id);
    // None acknowledged twice; a repeat only of a request in flight at the kill.
    expect(answered).toHaveLength(BLOGS);
    expect(new Set(answered).size).toBe(BLOGS);
    for (const receipt of received.filter((r) => !r.answered)) expect(answered).toContain(receipt.id);
    expect(inFlight.size).toBeGreaterThan(0);

    const after = await openDatabase({ dataDir });
    try {
      const deliveries = await after.db.selectFrom('webhook_deliveries').select(['id', 'status', 'payload']).execute();
      expect(deliveries).toHaveLength(BLOGS);
      expect(deliveries.every((delivery) => delivery.status === 'delivered')).toBe(true);
      expect(deliveries.map((delivery) => (delivery.payload as { post: { current: { id: string } } }).post.current.id).sort()).toEqual([...blogIds].sort());
      expect(new Set(deliveries.map((delivery) => delivery.id))).toEqual(new Set(answered));
    } finally {
      await after.close();
    }
  });
});
