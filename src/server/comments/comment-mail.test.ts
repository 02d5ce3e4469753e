import { describe, expect, it } from 'vitest';
import type { Comment } from '../../shared/comment-schema.js';
import type { MailMessage } from '../mail/mailer.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser, useSignedUpUsers } from '../testing/test-users.js';
import { claimCommentMailSlot } from './comment-mail.repository.js';
import { COMMENT_MAIL_WINDOW_SECONDS, UNSUBSCRIBE_TEXTS } from './comment-mail.service.js';
import { unsubscribeToken } from './unsubscribe-token.js';
import { htmlElements, htmlText } from '../testing/html-text.js';

describe('e-mails about comments and replies', () => {
  const t = useTestApp();
  const { owner, reader, other } = useSignedUpUsers(t, ['owner', 'reader', 'other']);

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, user?: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, remoteAddress: randomIp(), ...(payload ? { payload } : {}) });

  const insertBlog = async (userId: string, title = 'Garden notes') =>
    (await t.database.db.insertInto('blogs').values({ user_id: userId, title, body: 'Text.' }).returning('id').executeTakeFirstOrThrow()).id;

  /** A blog's readable address, which its mails link to (issue 58). */
  const slugOf = async (blogId: string) => (await t.database.db.selectFrom('blogs').select('slug').where('id', '=', blogId).executeTakeFirstOrThrow()).slug;

  /**
   * Comments, then waits for the mails it set off (jobs of the queue, after the answer). The counts
   * below are polled as well: on a loaded machine a mail has been seen to land just after the queue
   * looked settled.
   */
  const comment = async (blogId: string, user: TestUser, body: string, parentId?: string) => {
    const response = await api('POST', `/api/blogs/${blogId}/comments`, user, { body, ...(parentId ? { parentId } : {}) });
    expect(response.statusCode, response.body).toBe(201);
    await t.settled();
    return response.json<Comment>();
  };
  const mailsTo = async (user: TestUser) => (await t.outbox()).filter((mail) => mail.to === user.email);
  /** Makes the last mail to `user` about `blogId` look older than the window. */
  const windowPassed = (user: TestUser, blogId: string) =>
    t.database.db
      .updateTable('comment_mail_sent')
      .set({ sent_at: new Date(Date.now() - (COMMENT_MAIL_WINDOW_SECONDS + 60) * 1000) })
      .where('user_id', '=', user.id)
      .where('blog_id', '=', blogId)
      .execute();

  it("mails the blog's author about a new comment, with the text, a link and a one-click unsubscribe", async () => {
    const blogId = await insertBlog(owner.id, 'Roses in winter');
    const before = (await mailsTo(owner)).length;
    await comment(blogId, reader, 'Lovely *roses*');
    const mails = await mailsTo(owner);
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.subject).toBe('New comment on “Roses in winter”');
    expect(mail.text).toContain(`${reader.email} commented on your blog “Roses in winter”`);
    expect(mail.text).toContain('> Lovely *roses*');
    expect(mail.links).toContain(`${TEST_PUBLIC_URL}/blog/${await slugOf(blogId)}`);
    const unsubscribe = mail.links.find((link) => link.startsWith(`${TEST_PUBLIC_URL}/unsubscribe?token=`));
    expect(unsubscribe).toBeDefined();
    expect(mail.headers['list-unsubscribe']).toBe(`<${unsubscribe}>`);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it("gives the mail an HTML part: the comment as its page shows it, with absolute links, and everyone's text kept as text", async () => {
    const blogId = await insertBlog(owner.id, 'Tags <b>in</b> a title & more');
    const hostile = 'intro <a href="vbscript:x">v</a> and <b>bold</b> and <iframe src="https://evil.example"></iframe>\n\n**really** bold, [about](/about) and [mail](javascript:alert(1))';
    const written = await comment(blogId, reader, hostile);
    const mail = (await mailsTo(owner)).at(-1)!;
    expect(mail.subject).toBe('New comment on “Tags <b>in</b> a title & more”');
    const html = mail.html!;
    expect(html).toBeDefined();
    const elements = htmlElements(html).map((element) => element.name);
    // Only the mail's own frame and what the comment's Markdown makes: no b, iframe or script from the text.
    expect(new Set(elements)).toEqual(new Set(['html', 'head', 'meta', 'title', 'body', 'p', 'blockquote', 'strong', 'a']));
    expect(htmlText(html)).toContain(`${reader.email} commented on your blog “Tags <b>in</b> a title & more”:`);
    expect(htmlText(html)).toContain('intro <a href="vbscript:x">v</a> and <b>bold</b> and <iframe src="https://evil.example"></iframe>');
    const links = htmlElements(html).filter((element) => element.name === 'a').map((element) => element.attribs.href);
    expect(links).toContain(`${TEST_PUBLIC_URL}/about`);
    expect(links).toContain(`${TEST_PUBLIC_URL}/blog/${await slugOf(blogId)}`);
    expect(links.some((href) => href?.startsWith(`${TEST_PUBLIC_URL}/unsubscribe?token=`))).toBe(true);
    for (const href of links) expect(href).toMatch(/^https?:\/\//);
    // The comment's part is exactly its page's HTML, made absolute.
    expect(written.html).toContain('href="/about"');
    expect(html).toContain(`<blockquote>${written.html.replace(' href="/about"', ` href="${TEST_PUBLIC_URL}/about"`)}</blockquote>`);
  });

  it('mails a commenter about a reply to them, never anyone about their own comment', async () => {
    const blogId = await insertBlog(owner.id);
    const ownerBefore = (await mailsTo(owner)).length;
    const readerBefore = (await mailsTo(reader)).length;

    await comment(blogId, owner, 'My own first comment');
    await expect.poll(async () => (await mailsTo(owner)).length).toBe(ownerBefore);

    const readers = await comment(blogId, reader, 'A question');
    await expect.poll(async () => (await mailsTo(reader)).length).toBe(readerBefore);
    await expect.poll(async () => (await mailsTo(owner)).length).toBe(ownerBefore + 1);

    // The owner answers: the reader hears of it; the owner does not hear of their own reply.
    await comment(blogId, owner, 'An answer', readers.id);
    await expect.poll(async () => (await mailsTo(reader)).length).toBe(readerBefore + 1);
    const readerMails = await mailsTo(reader);
    expect(readerMails.at(-1)!.subject).toBe('New reply to your comment on “Garden notes”');
    expect(readerMails.at(-1)!.text).toContain(`${owner.email} replied to your comment`);
    await expect.poll(async () => (await mailsTo(owner)).length).toBe(ownerBefore + 1);

    // Replying to yourself tells no one new.
    const otherBefore = (await mailsTo(other)).length;
    const others = await comment(blogId, other, 'Me too');
    await windowPassed(owner, blogId);
    await comment(blogId, other, 'Replying to myself', others.id);
    await expect.poll(async () => (await mailsTo(other)).length).toBe(otherBefore);
  });

  it('sends at most one mail per blog per hour to each person, and again once the hour has passed', async () => {
    const blogId = await insertBlog(owner.id);
    const secondBlog = await insertBlog(owner.id, 'Second blog');
    const before = (await mailsTo(owner)).length;
    await comment(blogId, reader, 'One');
    await comment(blogId, other, 'Two');
    await comment(blogId, reader, 'Three');
    await expect.poll(async () => (await mailsTo(owner)).length).toBe(before + 1);

    await comment(secondBlog, reader, 'Elsewhere');
    await expect.poll(async () => (await mailsTo(owner)).length).toBe(before + 2);

    await windowPassed(owner, blogId);
    await comment(blogId, reader, 'Four');
    const mails = await mailsTo(owner);
    expect(mails).toHaveLength(before + 3);
    expect(mails.at(-1)!.text).toContain('> Four');
  });

  it('lets exactly one of many simultaneous claims for the same person and blog win (the throttle holds across processes)', async () => {
    const blogId = await insertBlog(owner.id);
    const claims = await Promise.all(Array.from({ length: 10 }, () => claimCommentMailSlot(t.database.db, other.id, blogId, COMMENT_MAIL_WINDOW_SECONDS)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('has a setting, on by default, that turns the mails off and on again', async () => {
    const author = await signUpUser(t.app);
    expect((await api('GET', '/api/settings/comment-emails')).statusCode).toBe(401);
    const initial = await api('GET', '/api/settings/comment-emails', author);
    expect(initial.json()).toEqual({ enabled: true });
    expect(initial.headers['cache-control']).toContain('no-store');

    const off = await api('PUT', '/api/settings/comment-emails', author, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect((await api('GET', '/api/settings/comment-emails', author)).json()).toEqual({ enabled: false });
    const blogId = await insertBlog(author.id);
    await comment(blogId, reader, 'Nobody will tell you');
    await expect.poll(async () => (await mailsTo(author)).length).toBe(0);

    expect((await api('PUT', '/api/settings/comment-emails', author, { enabled: true })).json()).toEqual({ enabled: true });
    await comment(blogId, reader, 'Now you hear of it');
    await expect.poll(async () => (await mailsTo(author)).length).toBe(1);
    expect((await api('PUT', '/api/settings/comment-emails', author, { enabled: 'yes' })).statusCode).toBe(400);
  });

  describe('unsubscribing from the link', () => {
    /** The POST a mail program sends to the List-Unsubscribe address: no origin, no session. */
    const oneClickPost = (link: URL, contentType: string, payload: string) =>
      t.app.inject({ method: 'POST', url: `${link.pathname}${link.search}`, headers: { 'content-type': contentType }, payload, remoteAddress: randomIp() });

    const unsubscribeLink = async (user: TestUser) => {
      const blogId = await insertBlog(user.id);
      await comment(blogId, reader, 'Hello');
      const mail = (await mailsTo(user)).at(-1)!;
      return { blogId, link: new URL(mail.headers['list-unsubscribe']!.slice(1, -1)) };
    };
    const enabled = async (user: TestUser) => (await api('GET', '/api/settings/comment-emails', user)).json<{ enabled: boolean }>().enabled;

    it('one click (RFC 8058): a POST from the mail program, without origin or session, turns the mails off', async () => {
      const author = await signUpUser(t.app);
      const { blogId, link } = await unsubscribeLink(author);
      // Opening the link (a mail scanner, a preview) changes nothing.
      await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, remoteAddress: randomIp() });
      expect(await enabled(author)).toBe(true);

      const response = await oneClickPost(link, 'application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toContain('You will no longer get e-mails about comments and replies.');
      expect(await enabled(author)).toBe(false);

      await windowPassed(author, blogId);
      await comment(blogId, other, 'Unheard');
      await expect.poll(async () => (await mailsTo(author)).length).toBe(1);

      const multipart = await oneClickPost(
        link,
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
      );
      expect(multipart.statusCode).toBe(200);
    });

    it("the page's button: a same-origin POST of the token turns the mails off", async () => {
      const author = await signUpUser(t.app);
      const { link } = await unsubscribeLink(author);
      const token = link.searchParams.get('token')!;
      const crossSite = await t.app.inject({ method: 'POST', url: '/api/comment-emails/unsubscribe', payload: { token }, remoteAddress: randomIp() });
      expect(crossSite.statusCode).toBe(403);
      expect(await enabled(author)).toBe(true);

      const response = await api('POST', '/api/comment-emails/unsubscribe', undefined, { token });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ enabled: false });
      expect(await enabled(author)).toBe(false);
    });

    it('refuses a token that is forged, altered or signed with another secret', async () => {
      const victim = await signUpUser(t.app);
      const good = unsubscribeToken(victim.id, t.config.authSecret);
      const forged = [
        unsubscribeToken(victim.id, 'x'.repeat(64)),
        `${Buffer.from(other.id).toString('base64url')}.${good.split('.')[1]}`,
        good.slice(0, -2),
        `${good}.extra`,
        '',
        'nonsense',
      ];
      for (const token of forged) {
        const viaPage = await api('POST', '/api/comment-emails/unsubscribe', undefined, { token });
        expect(viaPage.statusCode, token).toBe(400);
        const oneClick = await t.app.inject({ method: 'POST', url: `/unsubscribe?token=${encodeURIComponent(token)}`, remoteAddress: randomIp() });
        expect(oneClick.statusCode, token).toBe(400);
        if (oneClick.statusCode === 400) expect(oneClick.json().message).toBe(UNSUBSCRIBE_TEXTS.invalid);
      }
      expect(await enabled(victim)).toBe(true);
      expect(await enabled(other)).toBe(true);
    });
  });
});

describe('sending the mails', () => {
  it('neither delays nor fails the comment: a hanging mail server, then a failing one', async () => {
    let release!: () => void;
    const sent: MailMessage[] = [];
    let behaviour: 'hang' | 'fail' = 'hang';
    const mailer = {
      send: (message: MailMessage) => {
        if (behaviour === 'fail') return Promise.reject(new Error('SMTP is down'));
        return new Promise<void>((resolve) => {
          release = () => {
            sent.push(message);
            resolve();
          };
        });
      },
      close: () => {},
    };
    const t = await createTestApp({}, { mailer });
    try {
      const [owner, reader] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
      const blogId = (await t.database.db.insertInto('blogs').values({ user_id: owner.id, title: 'T', body: 'B' }).returning('id').executeTakeFirstOrThrow()).id;
      const post = (body: string) =>
        t.app.inject({ method: 'POST', url: `/api/blogs/${blogId}/comments`, headers: { origin: TEST_PUBLIC_URL, cookie: reader.cookie }, remoteAddress: randomIp(), payload: { body } });

      const answered = await post('While the mail hangs');
      expect(answered.statusCode).toBe(201);
      expect(sent).toHaveLength(0);
      await expect.poll(() => typeof release).toBe('function');
      release();
      await t.settled();
      expect(sent.map((mail) => mail.to)).toEqual([owner.email]);

      behaviour = 'fail';
      await t.database.db.deleteFrom('comment_mail_sent').execute();
      expect((await post('While the mail fails')).statusCode).toBe(201);
      await t.settled();
      expect((await t.database.db.selectFrom('comments').select('id').where('blog_id', '=', blogId).execute()).length).toBe(2);
    } finally {
      await t.close();
    }
  });
});
