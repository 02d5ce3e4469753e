import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPublishedJob } from '../core/blog-published.js';
import type { Mailer } from '../mail/mailer.js';
import { enqueueJob } from '../queue/job-queue.js';
import { createTestApp, queueSettled, startSecondApp, type TestApp } from '../testing/test-app.js';
import { seedAuthor, seedSubscribers } from './seed-subscribers.js';

const SUBSCRIBERS = 300;

// Runs in the `postgres` Vitest project only (see vitest.config.ts): two apps, each with its own
// pool and its own queue workers, as two processes on one Postgres server are.
describe('two app processes on one Postgres share a send', () => {
  const sent: Array<{ by: 'one' | 'two'; to: string }> = [];
  /** A mail server that takes a few milliseconds a message, so both workers are busy at once. */
  const recorder = (by: 'one' | 'two'): Mailer => ({
    send: async (message) => {
      await new Promise((resolve) => setTimeout(resolve, 3));
      sent.push({ by, to: message.to });
    },
    close: () => {},
  });
  let t: TestApp;
  let second: Awaited<ReturnType<typeof startSecondApp>>;
  beforeAll(async () => {
    t = await createTestApp({ MAIL_SEND_PER_MINUTE: '600000', QUEUE_POLL_MS: '50' }, { mailer: recorder('one') });
    second = await startSecondApp(t, { mailer: recorder('two') });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('each subscriber gets exactly one message, and both processes sent some', async () => {
    const authorId = await seedAuthor(t.database.db, 'shared-author@example.test');
    await seedSubscribers(t.database.db, authorId, SUBSCRIBERS);
    const blog = await t.database.db.insertInto('blogs').values({ user_id: authorId, title: 'Shared', body: 'x' }).returning('id').executeTakeFirstOrThrow();
    await enqueueJob(t.database.db, blogPublishedJob(blog.id));
    t.app.queue.wake();
    second.app.queue.wake();
    await queueSettled(t.app, t.database);
    await queueSettled(second.app, second.database);
    expect(sent).toHaveLength(SUBSCRIBERS);
    expect(new Set(sent.map((mail) => mail.to)).size).toBe(SUBSCRIBERS);
    expect(sent.filter((mail) => mail.by === 'one').length).toBeGreaterThan(0);
    expect(sent.filter((mail) => mail.by === 'two').length).toBeGreaterThan(0);
  });
});
