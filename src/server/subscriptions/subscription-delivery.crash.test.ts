import { describe, expect, it } from 'vitest';
import { blogPublishedJob } from '../core/blog-published.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { enqueueJob } from '../queue/job-queue.js';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../testing/server-process.js';
import { startSmtpServer, type ReceivedMail } from '../testing/smtp-server.js';
import { seedAuthor, seedSubscribers } from './seed-subscribers.js';

const SUBSCRIBERS = 1000;

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Recipients and how many messages each got, and whether repeats were the same message (one Message-ID). */
function deliveries(received: ReceivedMail[]) {
  const byRecipient = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  for (const { envelopeTo, mail } of received) {
    for (const to of envelopeTo) {
      counts.set(to, (counts.get(to) ?? 0) + 1);
      byRecipient.set(to, (byRecipient.get(to) ?? new Set()).add(mail.messageId ?? ''));
    }
  }
  return { counts, byRecipient };
}

describe('a send to 1,000 subscribers survives kill -9', () => {
  it('finishes the rest after a restart: nobody missed, nobody sent two different messages', { timeout: 240_000 }, async () => {
    const smtp = await startSmtpServer();
    const dataDir = migratedDataDir('blog-crash-mail-');
    // The site as the publish left it: 1,000 confirmed subscribers, a blog, its announcement queued.
    const database = await openDatabase({ dataDir });
    let blogId: string;
    try {
      await migrateToLatest(database.db);
      const authorId = await seedAuthor(database.db, 'author@example.test');
      await seedSubscribers(database.db, authorId, SUBSCRIBERS);
      blogId = (await database.db.insertInto('blogs').values({ user_id: authorId, title: 'News for everyone', body: 'Read me.' }).returning('id').executeTakeFirstOrThrow()).id;
      await enqueueJob(database.db, blogPublishedJob(blogId));
    } finally {
      await database.close();
    }

    const port = await freePort();
    const env = {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'a'.repeat(64),
      SMTP_URL: smtp.url,
      MAIL_SEND_PER_MINUTE: '60000',
      QUEUE_POLL_MS: '100',
      IMAGE_BACKFILL_ON_START: 'false',
    };
    const first = startServer(env);
    await waitForHealth(port);
    // Midway through the send, the process dies without a chance to record anything.
    await waitUntil(() => smtp.received.length >= SUBSCRIBERS / 4, 120_000, 'a quarter of the messages');
    first.child.kill('SIGKILL');
    await first.exited;
    const beforeRestart = smtp.received.length;
    expect(beforeRestart).toBeLessThan(SUBSCRIBERS);

    const second = startServer(env);
    await waitForHealth(port);
    await waitUntil(() => deliveries(smtp.received).counts.size === SUBSCRIBERS, 120_000, 'every subscriber');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await smtp.close();

    const { counts, byRecipient } = deliveries(smtp.received);
    expect(counts.size).toBe(SUBSCRIBERS);
    // SMTP has no two-phase commit: a message the server accepted just before the kill, and whose
    // job could not be marked done, goes again after the restart, as the same message (one
    // Message-ID, which mail stores keep once). At most the jobs in flight at the kill (4).
    const repeated = [...counts].filter(([, count]) => count > 1).map(([to]) => to);
    expect(repeated.length).toBeLessThanOrEqual(4);
    for (const to of repeated) expect(byRecipient.get(to)!.size, to).toBe(1);
    for (const ids of byRecipient.values()) expect([...ids][0]).toContain(blogId);

    // And the queue agrees: every job of the send done, none failed (the scheduled jobs' next periods wait, beside them).
    const after = await openDatabase({ dataDir });
    try {
      const states = await after.db
        .selectFrom('queued_jobs')
        .select(['state', (eb) => eb.fn.countAll<string>().as('count')])
        .where('kind', 'not like', 'recurring:%')
        .groupBy('state')
        .execute();
      expect(states.map((row) => [row.state, Number(row.count)])).toEqual([['done', SUBSCRIBERS + 1]]);
    } finally {
      await after.close();
    }
  });
});
