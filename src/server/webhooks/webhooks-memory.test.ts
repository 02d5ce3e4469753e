// test-plan: PGlite only (the server it starts runs on an embedded database of its own)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WebhookList } from '../../shared/webhook-schema.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { startFloodServer } from '../testing/flood-server.js';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../testing/server-process.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import { until } from '../testing/webhook-receiver.js';

const AUTH_SECRET = 'm'.repeat(64);
const MB = 1024 * 1024;
const LIMIT_MB = 512;

/** A line of the process's /proc status, in bytes (VmRSS: now; VmHWM: the most it ever held). */
function procBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith(`${field}:`))!;
  return Number(/(\d+)\s*kB/.exec(line)![1]) * 1024;
}

/**
 * Issue 56, as the attack run did it: a server given MEMORY_LIMIT_MB=512, a webhook whose target
 * streams a gigabyte to every delivery, and 'Send test' pressed three times. Before, the server
 * rose past 1.6 GB; now each answer is cut after its first bytes.
 */
describe('the server against a webhook target that streams a gigabyte', () => {
  it('stays within MEMORY_LIMIT_MB through three test sends', { timeout: 60_000 }, async () => {
    const flood = await startFloodServer();
    const dataDir = migratedDataDir('blog-webhook-flood-');
    const webhookId = randomUUID();
    const database = await openDatabase({ dataDir });
    let admin: { cookie: string };
    try {
      await migrateToLatest(database.db);
      await database.db.insertInto('webhooks').values({ id: webhookId, event: 'post.deleted', target_url: `${flood.base}/hook`, secret: 's'.repeat(32) }).execute();
      const [user] = await createSignedInUsers({ db: database.db, authSecret: AUTH_SECRET }, 1);
      await database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', user!.id).execute();
      admin = user!;
    } finally {
      await database.close();
    }

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = startServer({
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      AUTH_SECRET,
      MEMORY_LIMIT_MB: String(LIMIT_MB),
      WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true',
      WEBHOOKS_MAX_ATTEMPTS: '1',
      FEDERATION: 'false',
      QUEUE_POLL_MS: '100',
      IMAGE_BACKFILL_ON_START: 'false',
    });
    try {
      await waitForHealth(port);
      const pid = server.child.pid!;
      const rssBefore = procBytes(pid, 'VmRSS');
      const headers = { origin: base, cookie: admin.cookie };
      for (let i = 0; i < 3; i++) expect((await fetch(`${base}/api/admin/webhooks/${webhookId}/test`, { method: 'POST', headers })).status).toBe(202);
      const deliveries = async () => (await (await fetch(`${base}/api/admin/webhooks`, { headers })).json() as WebhookList).items[0]!.deliveries;
      await until(async () => (await deliveries()).filter((delivery) => delivery.status === 'delivered').length === 3, 'three deliveries');
      await expect.poll(() => flood.stats.closed, { timeout: 5000 }).toBe(3);

      expect(flood.stats.written).toBeLessThan(3 * 16 * MB);
      expect(procBytes(pid, 'VmHWM')).toBeLessThan(LIMIT_MB * MB);
      expect(procBytes(pid, 'VmRSS') - rssBefore).toBeLessThan(100 * MB);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await flood.close();
    }
  });

  it('refuses to start behind a proxy it cannot check addresses through, with one line saying what to set', { timeout: 30_000 }, async () => {
    const server = startServer({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'blog-proxy-')), NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: 'http://127.0.0.1:9' });
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^Invalid configuration: NODE_USE_ENV_PROXY sends outgoing requests through HTTPS_PROXY, .*unset NODE_USE_ENV_PROXY/)]);
  });
});
