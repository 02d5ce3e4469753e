import { describe, expect, it } from 'vitest';
import type { Blog, BlogPage, SearchPage } from '../../shared/blog-schema.js';
import { messages } from '../../shared/messages.js';
import type { ModerationOverview } from '../../shared/moderation-schema.js';
import { call, codeOf, linkParts, post, sessionEmail, waitForMail } from '../testing/auth-test-kit.js';
import { postBlog } from '../testing/test-blogs.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');

describe('moderation', () => {
  // Listed in another case, with spaces and a second address: the match ignores both.
  const t = useTestApp({ MODERATOR_EMAILS: ` someone-else@example.com , ${MODERATOR_EMAIL.toUpperCase()} ` });
  const { moderator, author, reader } = useSignedUpUsers(t, ['moderator', 'author', 'reader'], { moderator: { email: MODERATOR_EMAIL } });

  const inject = (method: 'GET' | 'POST', url: string, user?: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) },
      remoteAddress: randomIp(),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const report = (user: TestUser | undefined, targetId: string, reason = 'spam', details?: string) =>
    inject('POST', '/api/reports', user, { targetType: 'blog', targetId, reason, ...(details === undefined ? {} : { details }) });
  const act = async (payload: Record<string, unknown>) => {
    const response = await inject('POST', '/api/moderation/actions', moderator, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ModerationOverview>();
  };
  const overview = async () => {
    const response = await inject('GET', '/api/moderation', moderator);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ModerationOverview>();
  };
  // One word no other title has, so a search for it finds this blog alone.
  const newBlog = (user: TestUser, title = `moderated${Math.random().toString(36).slice(2, 10)}`) =>
    postBlog(t.app, user, { title, blog: 'Some words to report.' });

  /** Every public place a blog shows up, as an anonymous visitor sees it. */
  const publicPlaces = async (blog: Blog) => {
    const allHomePages: string[] = [];
    for (let page = 1; ; page++) {
      const list = (await inject('GET', `/api/blogs?page=${page}`)).json<BlogPage>();
      allHomePages.push(...list.items.map((item) => item.id));
      if (!list.hasMore) break;
    }
    const search = (await inject('GET', `/api/search?searchTerm=${encodeURIComponent(blog.title)}`)).json<SearchPage>();
    return {
      home: allHomePages.includes(blog.id),
      search: search.items.some((item) => item.id === blog.id),
      searchTotal: search.total,
      single: (await inject('GET', `/api/blogs/${blog.id}`)).statusCode,
      rss: (await inject('GET', '/rss.xml')).body.includes(blog.id),
      authorRss: (await inject('GET', `/rss.xml?author=${blog.userId}`)).body.includes(blog.id),
      // The sitemap names a blog by its readable address (issue 58).
      sitemap: (await inject('GET', '/sitemap.xml')).body.includes(`/blog/${blog.slug}<`),
    };
  };
  const shown = { home: true, search: true, searchTotal: 1, single: 200, rss: true, authorRss: true, sitemap: true };
  const gone = { home: false, search: false, searchTotal: 0, single: 404, rss: false, authorRss: false, sitemap: false };

  describe('who is a moderator', () => {
    it('answers 404 to everyone but a moderator, on every moderation endpoint, checked by the server', async () => {
      const blog = await newBlog(author);
      const calls: [method: 'GET' | 'POST', url: string, payload?: unknown][] = [
        ['GET', '/api/moderation/access'],
        ['GET', '/api/moderation'],
        ['POST', '/api/moderation/actions', { action: 'hide', targetType: 'blog', targetId: blog.id }],
        ['POST', '/api/moderation/actions', { action: 'suspend', userId: author.id }],
        ['POST', '/api/moderation/actions', { nonsense: true }],
      ];
      for (const [method, url, payload] of calls) {
        for (const user of [undefined, reader, author]) {
          const response = await inject(method, url, user, payload);
          expect(response.statusCode, `${method} ${url}`).toBe(404);
          expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
        }
      }
      expect((await inject('GET', `/api/blogs/${blog.id}`)).statusCode).toBe(200);
      expect(await t.database.db.selectFrom('moderation_log').selectAll().execute()).toEqual([]);
    });

    it('knows a moderator by the address in MODERATOR_EMAILS, whatever its case', async () => {
      const response = await inject('GET', '/api/moderation/access', moderator);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ moderator: true });
    });
  });

  describe('reports', () => {
    it('takes one open report per reader per blog, with a reason and capped details', async () => {
      const blog = await newBlog(author);
      expect((await report(undefined, blog.id)).statusCode).toBe(401);
      const badReason = await report(reader, blog.id, 'boring');
      expect(badReason.statusCode).toBe(400);
      expect(badReason.json()).toEqual({ error: 'BAD_REQUEST', message: messages.chooseReportReason });
      expect((await report(reader, blog.id, 'other', 'x'.repeat(1001))).statusCode).toBe(400);
      expect((await report(reader, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await report(reader, 'not-an-id')).statusCode).toBe(404);

      const first = await report(reader, blog.id, 'harassment', '  Rude to everyone.  ');
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({ message: messages.reportSent });
      const again = await report(reader, blog.id, 'spam');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: 'ALREADY_REPORTED', message: messages.alreadyReportedBlog });
      // Another reader may report the same blog.
      expect((await report(author, blog.id, 'spam')).statusCode).toBe(201);

      const open = (await overview()).reports.filter((item) => item.target.id === blog.id);
      expect(open).toHaveLength(2);
      expect(open[0]).toMatchObject({
        reason: 'harassment',
        details: 'Rude to everyone.',
        reporterEmail: reader.email,
        target: { type: 'blog', id: blog.id, title: blog.title, excerpt: 'Some words to report.', authorEmail: author.email, hidden: false },
      });

      // Once a moderator has dealt with it, the reader may report the blog again.
      await act({ action: 'dismiss', reportId: open[0]!.id });
      expect((await report(reader, blog.id, 'spam')).statusCode).toBe(201);
    });

    it('dismissing closes the report, logs who and why, and leaves the blog as it was', async () => {
      const blog = await newBlog(author);
      const reportId = (await report(reader, blog.id)).json<{ id: string }>().id;
      const after = await act({ action: 'dismiss', reportId, reason: 'Not spam, just short.' });
      expect(after.reports.some((item) => item.id === reportId)).toBe(false);
      expect(after.log[0]).toMatchObject({
        moderatorEmail: MODERATOR_EMAIL,
        action: 'dismiss',
        targetType: 'blog',
        targetId: blog.id,
        targetLabel: blog.title,
        reason: 'Not spam, just short.',
      });
      expect(Date.now() - new Date(after.log[0]!.createdAt).getTime()).toBeLessThan(60_000);
      expect(await publicPlaces(blog)).toEqual(shown);
      const twice = await inject('POST', '/api/moderation/actions', moderator, { action: 'dismiss', reportId });
      expect(twice.statusCode).toBe(404);
    });
  });

  describe('hiding a blog', () => {
    it('takes it out of every public place, keeps it for its author with the notice, and restores it', async () => {
      const blog = await newBlog(author);
      expect(await publicPlaces(blog)).toEqual(shown);
      const reportId = (await report(reader, blog.id, 'illegal', 'Copied from a book.')).json<{ id: string }>().id;

      const after = await act({ action: 'hide', targetType: 'blog', targetId: blog.id, reportId });
      // Hiding answers the report (and any other open one on the blog).
      expect(after.reports.some((item) => item.target.id === blog.id)).toBe(false);
      expect(after.hidden.map((item) => item.id)).toContain(blog.id);
      expect(after.log[0]).toMatchObject({ action: 'hide', targetLabel: blog.title, reason: 'Illegal content: Copied from a book.' });

      expect(await publicPlaces(blog)).toEqual(gone);
      expect((await inject('GET', `/api/blogs/${blog.id}`, reader)).statusCode).toBe(404);
      const own = await inject('GET', `/api/blogs/${blog.id}`, author);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ id: blog.id, hidden: true });
      // Nobody else can vote on it or report it.
      const vote = await inject('PUT' as 'POST', `/api/blogs/${blog.id}/vote`, reader, { direction: 'up' });
      expect(vote.statusCode).toBe(404);
      expect((await report(reader, blog.id)).statusCode).toBe(404);

      const restored = await act({ action: 'restore', targetType: 'blog', targetId: blog.id, reason: 'Permission shown.' });
      expect(restored.hidden.map((item) => item.id)).not.toContain(blog.id);
      expect(restored.log[0]).toMatchObject({ action: 'restore', reason: 'Permission shown.' });
      expect(await publicPlaces(blog)).toEqual(shown);
      expect((await inject('GET', `/api/blogs/${blog.id}`, author)).json()).toMatchObject({ hidden: false });
    });

    it('answers 404 for a blog that does not exist', async () => {
      const response = await inject('POST', '/api/moderation/actions', moderator, {
        action: 'hide',
        targetType: 'blog',
        targetId: '00000000-0000-4000-8000-000000000000',
      });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('comments', () => {
    const comment = async (user: TestUser, blogId: string, body: string) => {
      const response = await inject('POST', `/api/blogs/${blogId}/comments`, user, { body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string }>();
    };
    const comments = async (blogId: string, user?: TestUser) => {
      const list = (await inject('GET', `/api/blogs/${blogId}/comments`, user)).json<{ count: number; items: { id: string; hidden: boolean }[] }>();
      return { count: list.count, ids: list.items.map((item) => item.id), hidden: list.items.filter((item) => item.hidden).map((item) => item.id) };
    };
    const commentCount = async (blogId: string) => (await inject('GET', `/api/blogs/${blogId}`)).json<{ commentCount: number }>().commentCount;

    it('takes reports on comments, hides a comment from everyone but its author, and restores it', async () => {
      const blog = await newBlog(author);
      const kept = await comment(reader, blog.id, 'A fair point.');
      const rude = await comment(reader, blog.id, 'Something rude.');
      expect((await comments(blog.id)).count).toBe(2);

      const first = await inject('POST', '/api/reports', author, { targetType: 'comment', targetId: rude.id, reason: 'harassment' });
      expect(first.statusCode, first.body).toBe(201);
      const again = await inject('POST', '/api/reports', author, { targetType: 'comment', targetId: rude.id, reason: 'spam' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ message: messages.alreadyReportedComment });
      const open = (await overview()).reports.find((item) => item.target.id === rude.id);
      expect(open).toMatchObject({ target: { type: 'comment', blogId: blog.id, title: blog.title, excerpt: 'Something rude.', authorEmail: reader.email } });

      const after = await act({ action: 'hide', targetType: 'comment', targetId: rude.id, reportId: open!.id });
      expect(after.reports.some((item) => item.target.id === rude.id)).toBe(false);
      expect(after.hidden.map((item) => item.id)).toContain(rude.id);
      expect(after.log[0]).toMatchObject({ action: 'hide', targetType: 'comment', reason: 'Harassment' });

      expect(await comments(blog.id)).toEqual({ count: 1, ids: [kept.id], hidden: [] });
      expect(await comments(blog.id, author)).toEqual({ count: 1, ids: [kept.id], hidden: [] });
      expect(await commentCount(blog.id)).toBe(1);
      // Its author still sees it, marked.
      expect(await comments(blog.id, reader)).toEqual({ count: 1, ids: [kept.id, rude.id], hidden: [rude.id] });

      await act({ action: 'restore', targetType: 'comment', targetId: rude.id });
      expect(await comments(blog.id)).toEqual({ count: 2, ids: [kept.id, rude.id], hidden: [] });
      expect(await commentCount(blog.id)).toBe(2);
    });

    it("hides a suspended account's comments and counts them again once it is unsuspended", async () => {
      const blog = await newBlog(author);
      const commenter = await signUpUser(t.app);
      const said = await comment(commenter, blog.id, 'Buy cheap watches.');
      expect(await commentCount(blog.id)).toBe(1);
      await act({ action: 'suspend', userId: commenter.id });
      expect(await comments(blog.id)).toEqual({ count: 0, ids: [], hidden: [] });
      expect(await commentCount(blog.id)).toBe(0);
      await act({ action: 'unsuspend', userId: commenter.id });
      expect(await comments(blog.id)).toEqual({ count: 1, ids: [said.id], hidden: [] });
      expect(await commentCount(blog.id)).toBe(1);
    });
  });

  describe('suspending an account', () => {
    it('ends its sessions at once, refuses every sign-in with the message, hides its blogs, and unsuspending undoes it', async () => {
      const suspect = await signUpUser(t.app);
      // Verified, so a code or link sign-in keeps the password login (Better Auth drops it for unverified accounts).
      await t.database.db.updateTable('user').set({ emailVerified: true }).where('id', '=', suspect.id).execute();
      const blog = await newBlog(suspect);
      await report(reader, blog.id);
      expect(await sessionEmail(t.app, suspect.cookie)).toBe(suspect.email);

      const after = await act({ action: 'suspend', userId: suspect.id, reason: 'Spam on every page.' });
      expect(after.suspended.map((user) => user.email)).toContain(suspect.email);
      expect(after.reports.some((item) => item.target.id === blog.id)).toBe(false);
      expect(after.log[0]).toMatchObject({ action: 'suspend', targetType: 'user', targetLabel: suspect.email, reason: 'Spam on every page.' });

      // The session that was open is gone.
      expect(await sessionEmail(t.app, suspect.cookie)).toBeNull();
      expect(await t.database.db.selectFrom('session').select('id').where('userId', '=', suspect.id).execute()).toEqual([]);
      expect((await inject('GET', `/api/blogs/${blog.id}`, suspect)).statusCode).toBe(404);

      // No way of signing in works.
      const password = await post(t.app, '/api/auth/sign-in/email', { email: suspect.email, password: suspect.password });
      expect(password.statusCode).toBe(403);
      expect(password.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED', message: messages.accountSuspended });
      expect(password.cookie).not.toContain('session_token');

      await post(t.app, '/api/auth/email-otp/send-verification-otp', { email: suspect.email, type: 'sign-in' });
      const code = codeOf((await waitForMail(t, suspect.email, /sign-in code/)).text);
      const otp = await post(t.app, '/api/auth/sign-in/email-otp', { email: suspect.email, otp: code });
      expect(otp.statusCode).toBe(403);
      expect(otp.json()).toMatchObject({ message: messages.accountSuspended });
      expect(otp.cookie).not.toContain('session_token');

      await post(t.app, '/api/auth/sign-in/magic-link', { email: suspect.email });
      const { token } = linkParts((await waitForMail(t, suspect.email, /sign-in link/)).links[0]!);
      const link = await call(t.app, 'GET', `/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
      expect(link.cookie).not.toContain('session_token');
      expect(link.statusCode === 403 ? link.json().message : link.headers.location).toMatch(/suspended|ACCOUNT_SUSPENDED/i);
      expect(await t.database.db.selectFrom('session').select('id').where('userId', '=', suspect.id).execute()).toEqual([]);

      expect(await publicPlaces(blog)).toEqual(gone);
      // A blog that lands for the account while it is suspended (an insert already under way) is hidden too.
      const late = await t.database.db
        .insertInto('blogs')
        .values({ user_id: suspect.id, title: 'moderatedlateinsert', body: 'Late.' })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await inject('GET', `/api/blogs/${late.id}`)).statusCode).toBe(404);

      const lifted = await act({ action: 'unsuspend', userId: suspect.id });
      expect(lifted.suspended.map((user) => user.email)).not.toContain(suspect.email);
      expect(lifted.log[0]).toMatchObject({ action: 'unsuspend', targetLabel: suspect.email });
      expect(await publicPlaces(blog)).toEqual(shown);
      expect((await inject('GET', `/api/blogs/${late.id}`)).statusCode).toBe(200);
      const back = await post(t.app, '/api/auth/sign-in/email', { email: suspect.email, password: suspect.password });
      expect(back.statusCode).toBe(200);
      expect(await sessionEmail(t.app, back.cookie)).toBe(suspect.email);
    });

    it('does not suspend a moderator, nor an account that does not exist', async () => {
      const self = await inject('POST', '/api/moderation/actions', moderator, { action: 'suspend', userId: moderator.id });
      expect(self.statusCode).toBe(400);
      const nobody = await inject('POST', '/api/moderation/actions', moderator, { action: 'suspend', userId: 'no-such-user' });
      expect(nobody.statusCode).toBe(404);
      expect(await sessionEmail(t.app, moderator.cookie)).toBe(MODERATOR_EMAIL);
    });
  });
});

describe('moderation and the response cache', () => {
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL, RESPONSE_CACHE_MB: '8' });
  const { moderator, author } = useSignedUpUsers(t, ['moderator', 'author'], { moderator: { email: MODERATOR_EMAIL } });

  const anonymous = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });
  const act = async (payload: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/moderation/actions',
      headers: { origin: TEST_PUBLIC_URL, cookie: moderator.cookie },
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  it('drops cached lists and the cached blog on hiding, and everything on suspending', async () => {
    const blog = await postBlog(t.app, author, { title: 'Cached and then hidden', blog: 'Words.' });
    // Its event's follow-ups (the caches' own drop among them) are done before anything is kept.
    await t.settled();
    for (const url of ['/api/blogs', `/api/blogs/${blog.id}`, '/rss.xml']) {
      await anonymous(url);
      expect((await anonymous(url)).headers['x-cache'], url).toBe('hit');
    }
    await act({ action: 'hide', targetType: 'blog', targetId: blog.id });
    expect((await anonymous('/api/blogs')).json<BlogPage>().items.map((item) => item.id)).not.toContain(blog.id);
    expect((await anonymous(`/api/blogs/${blog.id}`)).statusCode).toBe(404);
    expect((await anonymous('/rss.xml')).body).not.toContain(blog.id);

    await act({ action: 'restore', targetType: 'blog', targetId: blog.id });
    expect((await anonymous('/api/blogs')).json<BlogPage>().items.map((item) => item.id)).toContain(blog.id);
    expect((await anonymous(`/api/blogs/${blog.id}`)).statusCode).toBe(200);

    await act({ action: 'suspend', userId: author.id });
    expect((await anonymous(`/api/blogs/${blog.id}`)).statusCode).toBe(404);
    expect((await anonymous('/api/blogs')).json<BlogPage>().items.map((item) => item.id)).not.toContain(blog.id);
  });
});
