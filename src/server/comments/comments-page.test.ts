import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { nuFindings } from '../testing/nu-html-rules.js';
import { unsubscribeToken } from './unsubscribe-token.js';

/** The text of the page's app root, as a reader without JavaScript gets it. */
function rootText(html: string): string {
  const document = parseDocument(html);
  const root = DomUtils.findOne((e) => e.attribs.id === 'root', document.children)!;
  return DomUtils.textContent(root).replace(/\s+/g, ' ');
}

describe('comments on the server-rendered blog page', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    t = await createTestApp({}, { pages: 'vite' });
    [author, reader] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
  }, 120_000);
  afterAll(() => t.close());

  const post = (url: string, user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, remoteAddress: randomIp(), payload });

  /** The page of a new blog of `author`'s, `comment` on it by `reader` and the author's `reply` to it. */
  const blogPageWithTalk = async (fields: { title: string; blog: string }, comment: string, reply: string) => {
    const blog = await postBlog(t.app, author, fields);
    const top = await post(`/api/blogs/${blog.id}/comments`, reader, { body: comment });
    expect(top.statusCode).toBe(201);
    expect((await post(`/api/blogs/${blog.id}/comments`, author, { body: reply, parentId: top.json().id })).statusCode).toBe(201);
    const page = await t.app.inject({ method: 'GET', url: `/viewBlog?id=${blog.id}` });
    expect(page.statusCode).toBe(200);
    return page;
  };

  // The first page rendered from source has Vite transform the page's whole module graph: on a busy machine, over 30 s.
  it('has the heading, every comment and reply with author and date, and the sign-in link in the HTML', { timeout: 120_000 }, async () => {
    const page = await blogPageWithTalk({ title: 'Talk to me', blog: 'Say something.' }, 'A **first** thought', 'Thanks for reading');
    const text = rootText(page.body);
    expect(text).toContain('Comments (2)');
    expect(text).toContain('A first thought');
    expect(page.body).toContain('<strong>first</strong>');
    expect(text).toContain('Thanks for reading');
    expect(text).toContain(reader.email);
    expect(text).toContain(new Date().toISOString().slice(0, 10));
    expect(text).toContain('Sign in to comment');
    // Rendered for an anonymous visitor: no one's buttons are in it.
    expect(text).not.toContain('Delete comment');
    expect(text).not.toContain('Post comment');

    const home = rootText((await t.app.inject({ method: 'GET', url: '/' })).body);
    expect(home).toContain('Comments: 2');
  });

  it("is valid HTML by a rule set equivalent to the Nu checker's, each comment and reply with a heading", async () => {
    const page = await blogPageWithTalk({ title: 'Valid talk', blog: '## A part\n\nSay something.' }, 'A comment', 'A reply');
    expect(await nuFindings(page.body)).toEqual([]);
    // The author lines are the headings: a comment's under 'Comments (n)', a reply's under its comment.
    const document = parseDocument(page.body);
    const comments = DomUtils.findAll((e) => e.name === 'article' && e.attribs.class === 'comment', document.children);
    expect(comments.map((c) => DomUtils.findOne((e) => /^h[1-6]$/.test(e.name), c.children)?.name)).toEqual(['h3', 'h4']);
    // The rule set does see a comment without its heading.
    const withoutHeading = page.body.replace(/<h3 class="comment-meta[^>]*>.*?<\/h3>/s, '<p>someone</p>');
    expect(await nuFindings(withoutHeading)).toEqual([expect.stringMatching(/^nu\/sectioning-heading: Article lacks heading/)]);
  });

  it('renders the unsubscribe page with its button, and opening it changes nothing', async () => {
    const token = unsubscribeToken(reader.id, t.config.authSecret);
    const page = await t.app.inject({ method: 'GET', url: `/unsubscribe?token=${token}` });
    expect(page.statusCode).toBe(200);
    const text = rootText(page.body);
    expect(text).toContain('E-mails about comments');
    expect(page.body).toMatch(/<button[^>]*>Unsubscribe<\/button>/);
    const setting = await t.app.inject({ method: 'GET', url: '/api/settings/comment-emails', headers: { cookie: reader.cookie } });
    expect(setting.json()).toEqual({ enabled: true });
  });
});
