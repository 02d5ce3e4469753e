import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { QueueOverview, SubscriptionByToken, SubscriptionList } from '../../shared/subscription-schema.js';
import { blogPublishedJob } from '../core/blog-published.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import { enqueueJob } from '../queue/job-queue.js';
import type { OutboxMail } from '../testing/outbox-reader.js';
import { postBlog } from '../testing/test-blogs.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';
import { NEW_POST_MAIL_JOB } from './new-post-mail.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');

describe('e-mail subscriptions', () => {
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL });
  const { author, other } = useSignedUpUsers(t, ['author', 'other']);

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, options: { user?: TestUser; payload?: unknown; ip?: string } = {}) =>
    t.app.inject({
      method,
      url,
      headers: { origin: TEST_PUBLIC_URL, ...(options.user ? { cookie: options.user.cookie } : {}) },
      remoteAddress: options.ip ?? randomIp(),
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });
  const subscribe = (email: string, authorId?: string, user?: TestUser) => inject('POST', '/api/subscriptions', { user, payload: { email, ...(authorId ? { authorId } : {}) } });
  const mailsTo = async (email: string) => {
    await t.settled();
    return (await t.outbox()).filter((mail) => mail.to === email);
  };
  const tokenOf = (mail: OutboxMail) => new URL(mail.links.find((link) => link.includes('/subscription/'))!).searchParams.get('token')!;

  /** Subscribes signed out and confirms through the e-mailed link's page. */
  const subscribeConfirmed = async (email: string, authorId?: string) => {
    expect((await subscribe(email, authorId)).json()).toEqual({ status: 'pending' });
    const confirmation = (await mailsTo(email)).findLast((mail) => /Confirm your subscription/.test(mail.subject))!;
    const confirmed = await inject('POST', '/api/subscriptions/confirm', { payload: { token: tokenOf(confirmation) } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  };
  const newPostMails = async (email: string) => (await mailsTo(email)).filter((mail) => mail.headers['list-unsubscribe']);

  it('signed out: double opt-in; opening the link confirms nothing, the button does; the answer never tells who is subscribed', async () => {
    const email = uniqueEmail('reader');
    const first = await subscribe(email.toUpperCase(), author.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ status: 'pending' });
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toMatch(/Confirm your subscription/);
    expect(mail!.text).toContain(author.email);
    const token = tokenOf(mail!);

    // A link scanner GETs the link and the API it reads: still unconfirmed.
    await inject('GET', `/subscription/confirm?token=${encodeURIComponent(token)}`);
    const described = await inject('GET', `/api/subscriptions/by-token?token=${encodeURIComponent(token)}`);
    expect(described.json<SubscriptionByToken>()).toEqual({ email, target: { kind: 'author', authorId: author.id, authorName: author.email }, confirmed: false });

    expect((await inject('POST', '/api/subscriptions/confirm', { payload: { token } })).json()).toEqual({ status: 'subscribed' });
    expect((await inject('GET', `/api/subscriptions/by-token?token=${encodeURIComponent(token)}`)).json<SubscriptionByToken>().confirmed).toBe(true);

    // Subscribing again answers the same, and mails nobody: no way to learn the address is subscribed.
    expect((await subscribe(email, author.id)).json()).toEqual({ status: 'pending' });
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('refuses bad addresses, unknown authors and forged tokens with the error shape', async () => {
    for (const email of ['not-an-address', '', 'a@b', `${'x'.repeat(300)}@example.com`]) {
      const response = await subscribe(email);
      expect(response.statusCode, email).toBe(400);
      expect(response.json()).toMatchObject({ message: 'Enter a valid e-mail address.' });
    }
    expect((await subscribe(uniqueEmail(), 'no-such-author')).statusCode).toBe(404);
    for (const token of ['x', 'a.b', `${Buffer.from('00000000-0000-0000-0000-000000000000').toString('base64url')}.forged`]) {
      const response = await inject('POST', '/api/subscriptions/confirm', { payload: { token } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'NOT_FOUND', message: 'This link is not valid any more.' });
    }
  });

  it('limits confirmation e-mails per address', async () => {
    const email = uniqueEmail('limited');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await subscribe(email, i % 2 ? author.id : undefined)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('signed in with their own verified address: subscribed at once, listed in Settings, removable', async () => {
    const reader = await signUpUser(t.app);
    await t.database.db.updateTable('user').set({ emailVerified: true }).where('id', '=', reader.id).execute();
    expect((await subscribe(reader.email, undefined, reader)).json()).toEqual({ status: 'subscribed' });
    expect((await subscribe(reader.email, author.id, reader)).json()).toEqual({ status: 'subscribed' });
    // Another address, even signed in, is confirmed by its owner first.
    expect((await subscribe(uniqueEmail(), undefined, reader)).json()).toEqual({ status: 'pending' });
    expect(await mailsTo(reader.email)).toHaveLength(0);

    const list = (await inject('GET', '/api/settings/subscriptions', { user: reader })).json<SubscriptionList>();
    expect(list.items.map((item) => item.target)).toEqual([{ kind: 'site' }, { kind: 'author', authorId: author.id, authorName: author.email }]);
    expect((await inject('GET', '/api/settings/subscriptions')).statusCode).toBe(401);
    // Nobody removes someone else's subscription.
    expect((await inject('DELETE', `/api/settings/subscriptions/${list.items[0]!.id}`, { user: other })).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/settings/subscriptions/${list.items[0]!.id}`, { user: reader })).json()).toEqual({ status: 'unsubscribed' });
    expect((await inject('GET', '/api/settings/subscriptions', { user: reader })).json<SubscriptionList>().items).toHaveLength(1);

    // Deleting the account removes its subscriptions.
    const deleted = await inject('DELETE', '/api/account', { user: reader, payload: { password: reader.password } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await t.database.db.selectFrom('subscriptions').select('id').where('email', '=', reader.email).execute()).toEqual([]);
  });

  it('a new blog mails each confirmed subscriber of the site or its author exactly once; edits send nothing', async () => {
    const writer = await signUpUser(t.app);
    const both = uniqueEmail('both');
    const siteOnly = uniqueEmail('site');
    const unconfirmed = uniqueEmail('unconfirmed');
    await subscribeConfirmed(both);
    await subscribeConfirmed(both, writer.id);
    await subscribeConfirmed(siteOnly);
    await subscribe(unconfirmed, writer.id);
    // The author, subscribed to the site, does not hear of their own blog.
    await t.database.db.updateTable('user').set({ emailVerified: true }).where('id', '=', writer.id).execute();
    await subscribe(writer.email, undefined, writer);

    const blog = await postBlog(t.app, writer, { title: 'A <new> post', blog: 'The **first** paragraph of it.\n\n<script>alert(1)</script>' });
    const [mail, ...more] = await newPostMails(both);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`${writer.email} published “A <new> post”`);
    expect(mail!.text).toContain('The first paragraph of it.');
    expect(mail!.text).toContain(`${TEST_PUBLIC_URL}/blog/${blog.slug}`);
    expect(mail!.html).toContain('A &lt;new&gt; post');
    expect(mail!.html).not.toMatch(/<script|<new>/);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.headers['message-id']).toContain(blog.id);
    expect(await newPostMails(siteOnly)).toHaveLength(1);
    expect(await newPostMails(unconfirmed)).toHaveLength(0);
    expect(await newPostMails(writer.email)).toHaveLength(0);

    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/blogs/${blog.id}`,
      headers: { origin: TEST_PUBLIC_URL, cookie: writer.cookie, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nA new post, edited\r\n--b\r\nContent-Disposition: form-data; name="blog"\r\n\r\nChanged.\r\n--b--\r\n',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await newPostMails(both)).toHaveLength(1);

    // A draft sends nothing until it is published; then once.
    const draft = await postBlog(t.app, writer, { title: 'Later', blog: 'Soon.', status: 'draft' } as never);
    expect(draft.status).toBe('draft');
    expect(await newPostMails(siteOnly)).toHaveLength(1);
    const published = await t.app.inject({
      method: 'PATCH',
      url: `/api/blogs/${draft.id}`,
      headers: { origin: TEST_PUBLIC_URL, cookie: writer.cookie, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nLater\r\n--b\r\nContent-Disposition: form-data; name="blog"\r\n\r\nSoon.\r\n--b\r\nContent-Disposition: form-data; name="status"\r\n\r\npublished\r\n--b--\r\n',
    });
    expect(published.json<Blog>().status).toBe('published');
    expect((await newPostMails(siteOnly)).map((m) => m.subject)).toEqual([expect.stringContaining('A <new> post'), expect.stringContaining('Later')]);
  });

  it('one click in the mail program (RFC 8058 header) unsubscribes at once; the next blog is not sent', async () => {
    const writer = await signUpUser(t.app);
    const email = uniqueEmail('leaving');
    await subscribeConfirmed(email, writer.id);
    await postBlog(t.app, writer, { title: 'First', blog: 'One.' });
    const [mail] = await newPostMails(email);
    const link = mail!.headers['list-unsubscribe']!.replace(/^<|>$/g, '');
    expect(link).toContain('/subscription/unsubscribe?token=');
    // From the mail program's servers: no Origin, no cookie, a form body.
    const clicked = await t.app.inject({ method: 'POST', url: link.replace(TEST_PUBLIC_URL, ''), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click', remoteAddress: randomIp() });
    expect(clicked.statusCode, clicked.body).toBe(200);
    await postBlog(t.app, writer, { title: 'Second', blog: 'Two.' });
    expect(await newPostMails(email)).toHaveLength(1);
    // The link still answers (nothing left to end), and a forged one does not.
    expect((await inject('POST', '/api/subscriptions/unsubscribe', { payload: { token: new URL(link).searchParams.get('token') } })).json()).toEqual({ status: 'unsubscribed' });
    expect((await inject('POST', '/api/subscriptions/unsubscribe', { payload: { token: 'forged.token' } })).statusCode).toBe(404);
  });

  it('sends nothing about a blog deleted, hidden, or whose author was suspended before its mail went out', async () => {
    const writer = await signUpUser(t.app);
    const email = uniqueEmail('careful');
    await subscribeConfirmed(email, writer.id);
    const insertBlog = (values: { hidden?: boolean }) =>
      t.database.db
        .insertInto('blogs')
        .values({ user_id: writer.id, title: 'Gone before sending', body: 'x', ...(values.hidden ? { hidden_at: new Date() } : {}) })
        .returning('id')
        .executeTakeFirstOrThrow();
    // Each as its publish transaction would leave it, with the change made before the job ran.
    const hidden = await insertBlog({ hidden: true });
    await enqueueJob(t.database.db, blogPublishedJob(hidden.id));
    await enqueueJob(t.database.db, blogPublishedJob('00000000-0000-4000-8000-000000000000'));
    const visible = await insertBlog({});
    const subscription = await t.database.db.selectFrom('subscriptions').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await enqueueJob(t.database.db, { kind: NEW_POST_MAIL_JOB, key: `test:${visible.id}`, payload: { blogId: visible.id, subscriptionId: subscription.id } });
    await t.database.db.updateTable('user').set({ suspended_at: new Date() }).where('id', '=', writer.id).execute();
    await t.database.db.updateTable('blogs').set({ author_suspended_at: new Date() }).where('user_id', '=', writer.id).execute();
    t.app.queue.wake();
    expect(await newPostMails(email)).toHaveLength(0);
    const jobs = await t.database.db.selectFrom('queued_jobs').select(['state']).where('key', 'in', [`blog-published:${hidden.id}`, `test:${visible.id}`]).execute();
    expect(jobs.map((job) => job.state)).toEqual(['done', 'done']);
  });

  it('the author alone sees their number of subscribers', async () => {
    const writer = await signUpUser(t.app);
    await subscribeConfirmed(uniqueEmail('fan'), writer.id);
    await subscribe(uniqueEmail('undecided'), writer.id);
    expect((await inject('GET', `/api/authors/${writer.id}/subscribers`, { user: writer })).json()).toEqual({ count: 1 });
    expect((await inject('GET', `/api/authors/${writer.id}/subscribers`, { user: other })).statusCode).toBe(403);
    expect((await inject('GET', `/api/authors/${writer.id}/subscribers`)).statusCode).toBe(401);
  });
});

describe('the queue, for moderators', () => {
  it('shows a failed mail with its error, and a retry sends it', async () => {
    let refuse = true;
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      send: async (message) => {
        if (refuse) throw Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 });
        sent.push(message);
      },
      close: () => {},
    };
    const t = await createTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL }, { mailer });
    try {
      const moderator = await signUpUser(t.app, { email: MODERATOR_EMAIL });
      const reader = await signUpUser(t.app);
      const get = (user: TestUser) => t.app.inject({ method: 'GET', url: '/api/moderation/queue', headers: { cookie: user.cookie } });
      await t.app.inject({ method: 'POST', url: '/api/subscriptions', headers: { origin: TEST_PUBLIC_URL }, remoteAddress: randomIp(), payload: { email: 'bounce@example.com' } });
      await t.settled();
      // A 5xx is final: failed after one attempt, not retried for hours.
      const overview = (await get(moderator)).json<QueueOverview>();
      expect(overview.counts.failed).toBe(1);
      expect(overview.failed[0]).toMatchObject({ kind: 'mail', state: 'failed', attempts: 1, lastError: expect.stringContaining('550 mailbox unavailable') });
      expect((await get(reader)).statusCode).toBe(404);
      const retry = (user: TestUser, id: string) => t.app.inject({ method: 'POST', url: `/api/moderation/queue/${id}/retry`, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie } });
      expect((await retry(reader, overview.failed[0]!.id)).statusCode).toBe(404);

      refuse = false;
      expect((await retry(moderator, overview.failed[0]!.id)).statusCode).toBe(200);
      await t.settled();
      expect(sent.map((mail) => mail.to)).toEqual(['bounce@example.com']);
      // The mail is done now, beside what was done before it (the accounts' own events).
      expect((await get(moderator)).json<QueueOverview>().counts).toMatchObject({ failed: 0, done: overview.counts.done + 1 });
      expect((await retry(moderator, overview.failed[0]!.id)).statusCode).toBe(404);
      expect((await sql<{ payload: object }>`select payload from queued_jobs where kind = 'mail'`.execute(t.database.db)).rows).toEqual([{ payload: {} }]);
    } finally {
      await t.close();
    }
  });
});
