import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBlog } from '../testing/test-blogs.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { startSmtpServer } from '../testing/smtp-server.js';
import { signUpUser } from '../testing/test-users.js';
import { seedSubscribers } from './seed-subscribers.js';

describe('subscription e-mails through a real SMTP server that fails at first', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer({ failFirst: 3 });
    t = await createTestApp({ SMTP_URL: smtp.url, QUEUE_RETRY_BASE_MS: '50' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('retries with backoff until each of 40 subscribers has exactly one message', async () => {
    const author = await signUpUser(t.app);
    await seedSubscribers(t.database.db, author.id, 40);
    const blog = await postBlog(t.app, author, { title: 'Out through a flaky server', blog: 'Hello, subscribers.' });
    // The announcement is queued as the blog is published; wait for its outcome (40 recipients),
    // then for the queue to have nothing left, rather than for a queue that may not have it yet.
    await expect.poll(() => new Set(smtp.received.flatMap((message) => message.envelopeTo)).size, { timeout: 30_000 }).toBe(40);
    await t.settled();
    expect(smtp.refused()).toBe(3);
    const recipients = smtp.received.map((message) => message.envelopeTo.join(','));
    expect(new Set(recipients).size).toBe(40);
    expect(recipients).toHaveLength(40);
    expect(smtp.received.every((message) => message.mail.messageId?.includes(blog.id))).toBe(true);
    // The refused ones were retried (their attempts show it), and none failed for good.
    const jobs = await t.database.db.selectFrom('queued_jobs').select(['state', 'attempts', 'last_error']).where('kind', '=', 'new-post-mail').execute();
    expect(jobs.every((job) => job.state === 'done')).toBe(true);
    expect(jobs.filter((job) => job.attempts > 1).length).toBeGreaterThanOrEqual(1);
  });
});
