import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGE_MAX_LENGTH } from '../../shared/constants.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { randomIp } from '../testing/test-users.js';
import { CONTACT_RATE_LIMIT } from './contact.routes.js';

const post = (t: TestApp, payload: unknown, ip = randomIp()) =>
  t.app.inject({ method: 'POST', url: '/api/contact', headers: { origin: TEST_PUBLIC_URL }, payload: payload as object, remoteAddress: ip });

describe('POST /api/contact', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CONTACT_TO: 'team@example.com' });
  });
  afterAll(() => t.close());

  it('stores the message and forwards it to CONTACT_TO', async () => {
    const response = await post(t, { email: 'reader@example.com', message: 'Hello there!\nSecond line.' });
    expect(response.statusCode).toBe(201);
    const { id, message } = response.json() as { id: string; message: string };
    expect(message).toMatch(/sent/);
    // The forwarding is a job of the durable queue, sent just after the answer.
    await t.settled();

    const row = await t.database.db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'reader@example.com', message: 'Hello there!\nSecond line.' });
    expect(row.forwarded_at).not.toBeNull();

    const mails = await t.outbox();
    const forwarded = mails.find((mail) => mail.to === 'team@example.com');
    expect(forwarded?.subject).toBe('Contact message from reader@example.com');
    expect(forwarded?.text).toContain('Second line.');
  });

  it.each([
    [{ email: '', message: 'hi' }, 'Add an email!'],
    [{ message: 'hi' }, 'Add an email!'],
    [{ email: 'a@b.co', message: '   ' }, 'Add a message!'],
    [{ email: 'not-an-email', message: 'hi' }, 'Enter a valid e-mail address.'],
    [{ email: 'a@b.co', message: 'x'.repeat(CONTACT_MESSAGE_MAX_LENGTH + 1) }, 'Your message is too long'],
  ])('refuses bad input %# with a clear message', async (payload, expected) => {
    const response = await post(t, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining(expected) });
  });

  it('limits messages per client and says when to try again', async () => {
    const ip = randomIp();
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) {
      expect((await post(t, { email: 'busy@example.com', message: `message ${i}` }, ip)).statusCode).toBe(201);
    }
    const refused = await post(t, { email: 'busy@example.com', message: 'one too many' }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/wait/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await post(t, { email: 'other@example.com', message: 'hi' })).statusCode).toBe(201);
  });

  it('groups IPv6 clients by /64', async () => {
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) {
      expect((await post(t, { email: 'v6@example.com', message: `m${i}` }, `2001:db8:1:2::${i + 1}`)).statusCode).toBe(201);
    }
    expect((await post(t, { email: 'v6@example.com', message: 'next' }, '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
  });
});

describe('POST /api/contact when mail fails', () => {
  let t: TestApp;
  let down = true;
  const sent: MailMessage[] = [];
  const flakyMailer: Mailer = {
    send: async (message) => {
      if (down) throw new Error('SMTP down');
      sent.push(message);
    },
    close: () => {},
  };
  beforeAll(async () => {
    t = await createTestApp({ CONTACT_TO: 'team@example.com', QUEUE_RETRY_BASE_MS: '50' }, { mailer: flakyMailer });
  });
  afterAll(() => t.close());

  it('keeps the message, answers at once, and forwards it once the mail server is back', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { origin: TEST_PUBLIC_URL }, payload: { email: 'kept@example.com', message: 'do not lose me' } });
    expect(response.statusCode).toBe(201);
    const job = () => t.database.db.selectFrom('queued_jobs').select(['state', 'attempts', 'last_error']).where('kind', '=', 'contact-forward').executeTakeFirstOrThrow();
    // The first attempt has failed and said why (a job counts its attempt when it is taken, before it fails).
    await expect.poll(async () => (await job()).last_error, { timeout: 10_000 }).toBe('SMTP down');
    expect((await job()).attempts).toBeGreaterThanOrEqual(1);
    const forwardedAt = async () =>
      (await sql<{ forwarded_at: Date | null }>`select forwarded_at from contact_messages where email = 'kept@example.com'`.execute(t.database.db)).rows[0]!.forwarded_at;
    expect(await forwardedAt()).toBeNull();

    down = false;
    await expect.poll(forwardedAt, { timeout: 10_000 }).not.toBeNull();
    expect(sent.map((mail) => [mail.to, mail.replyTo])).toEqual([['team@example.com', 'kept@example.com']]);
    // The job is marked done after its work, in a statement of its own: wait for it, do not race it.
    await expect.poll(async () => (await job()).state, { timeout: 10_000 }).toBe('done');
  });
});
