// test-plan: PGlite only (plain inserts and updates by key; the sitemap's trigger is the feeds' own function)
import { describe, expect, it } from 'vitest';
import { DEFAULT_ABOUT_MARKDOWN, DEFAULT_FAQ, type SitePage, type SitePagesAdmin, type SiteTexts } from '../../shared/site-pages-schema.js';
import { giveRole } from '../testing/site-managers.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers, type TestUser } from '../testing/test-users.js';

describe('pages the owner writes (issue 58): the API', () => {
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' });
  const { admin, author } = useSignedUpUsers(t, ['admin', 'author']);

  const send = (user: TestUser | undefined, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, ...(payload ? { payload } : {}) });
  const asAdmin = async () => {
    await giveRole(t, admin, 'administrator');
    return admin;
  };
  const texts = async () => (await send(undefined, 'GET', '/api/site-texts')).json<SiteTexts>();
  const auditActions = async (subject: string) =>
    (await t.database.db.selectFrom('audit_log').select('action').where('action', 'like', 'page.%').where('subject', '=', subject).orderBy('id').execute()).map((row) => row.action);

  it('answers 404 to everyone who may not manage the site, and changes nothing', async () => {
    for (const user of [undefined, author]) {
      expect((await send(user, 'GET', '/api/admin/pages')).statusCode).toBe(404);
      expect((await send(user, 'PUT', '/api/admin/site-texts/about', { markdown: 'Mine now.' })).statusCode).toBe(404);
      expect((await send(user, 'PUT', '/api/admin/site-texts/faq', { entries: [] })).statusCode).toBe(404);
      expect((await send(user, 'POST', '/api/admin/pages', { title: 'Shop', slug: 'shop', markdown: 'Buy.' })).statusCode).toBe(404);
      expect((await send(user, 'POST', '/api/admin/pages/preview', { markdown: 'x' })).statusCode).toBe(404);
    }
    expect(await texts()).toEqual({ about: null, faq: null });
    expect((await send(undefined, 'GET', '/api/pages/shop')).statusCode).toBe(404);
  });

  it('starts from the spec’s texts, saves About and the FAQ (added, removed, reordered), and puts the spec’s back', async () => {
    const user = await asAdmin();
    const fresh = (await send(user, 'GET', '/api/admin/pages')).json<SitePagesAdmin>();
    expect(fresh).toEqual({ about: { markdown: DEFAULT_ABOUT_MARKDOWN, custom: false }, faq: { entries: DEFAULT_FAQ, custom: false }, pages: [] });
    expect(await texts()).toEqual({ about: null, faq: null });

    expect((await send(user, 'PUT', '/api/admin/site-texts/about', { markdown: 'Harbour Notes is **ours**.\n\n## Terms\n\nBe kind. <script>alert(1)</script><a href="javascript:alert(2)">x</a>' })).statusCode).toBe(204);
    const about = (await texts()).about!.html;
    expect(about).toContain('<strong>ours</strong>');
    // Raw HTML is text, as in a blog: no element, no live link.
    expect(about).not.toMatch(/<script|<a href="javascript/);
    expect(about).toContain('&lt;script&gt;');

    const [first, second, third] = DEFAULT_FAQ;
    const entries = [third!, first!, { question: 'Where is the harbour?', answer: 'By the *old* wall.' }];
    expect(second).toBeDefined();
    expect((await send(user, 'PUT', '/api/admin/site-texts/faq', { entries })).statusCode).toBe(204);
    expect((await texts()).faq).toEqual([
      { question: third!.question, answerHtml: `<p>${third!.answer}</p>\n` },
      { question: first!.question, answerHtml: expect.stringContaining('Choose Login or Register') },
      { question: 'Where is the harbour?', answerHtml: '<p>By the <em>old</em> wall.</p>\n' },
    ]);
    expect((await send(user, 'GET', '/api/admin/pages')).json<SitePagesAdmin>().faq).toEqual({ entries, custom: true });
    expect((await send(user, 'PUT', '/api/admin/site-texts/faq', { entries: [] })).statusCode).toBe(204);
    expect((await texts()).faq).toEqual([]);

    expect((await send(user, 'DELETE', '/api/admin/site-texts/about')).statusCode).toBe(204);
    expect((await send(user, 'DELETE', '/api/admin/site-texts/faq')).statusCode).toBe(204);
    expect(await texts()).toEqual({ about: null, faq: null });
    expect(await auditActions('about')).toEqual(['page.update', 'page.reset']);
    expect(await auditActions('faq')).toEqual(['page.update', 'page.update', 'page.reset']);
  });

  it('refuses bad input in the API’s error shape', async () => {
    const user = await asAdmin();
    const cases: Array<[string, string, object, RegExp]> = [
      ['PUT', '/api/admin/site-texts/about', { markdown: '   ' }, /Add the page text/],
      ['PUT', '/api/admin/site-texts/faq', { entries: [{ question: 'Why?', answer: '' }] }, /Add an answer/],
      ['PUT', '/api/admin/site-texts/faq', { entries: [{ question: ' ', answer: 'Because.' }] }, /Add a question/],
      ['POST', '/api/admin/pages', { title: '', slug: 'shop', markdown: '' }, /Add a title/],
      ['POST', '/api/admin/pages', { title: 'Shop', slug: 'Opening Hours', markdown: '' }, /lowercase letters and digits joined by hyphens/],
      ['POST', '/api/admin/pages', { title: 'Shop', slug: '../admin', markdown: '' }, /lowercase letters and digits joined by hyphens/],
      ['POST', '/api/admin/pages', { title: 'Shop', slug: '', markdown: '' }, /Add an address/],
    ];
    for (const [method, url, payload, message] of cases) {
      const response = await send(user, method as 'PUT', url, payload);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: expect.stringMatching(message) });
    }
    expect(await texts()).toEqual({ about: null, faq: null });
  });

  it('makes, edits and removes a page of the owner’s own, sanitised, in the sitemap while it exists', async () => {
    const user = await asAdmin();
    const created = await send(user, 'POST', '/api/admin/pages', { title: 'Opening hours', slug: 'opening-hours', markdown: 'Open **9 to 5**.<img src=x onerror=alert(1)><iframe src="https://evil.example"></iframe>' });
    expect(created.statusCode).toBe(201);
    expect(created.json<SitePage>()).toMatchObject({ slug: 'opening-hours', title: 'Opening hours' });
    const page = (await send(undefined, 'GET', '/api/pages/opening-hours')).json<SitePage>();
    expect(page.html).toContain('<strong>9 to 5</strong>');
    expect(page.html).not.toMatch(/<img|<iframe/);
    expect(page.html).toContain('&lt;iframe');

    const again = await send(user, 'POST', '/api/admin/pages', { title: 'Other', slug: 'opening-hours', markdown: '' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'CONFLICT', message: 'There is already a page at /page/opening-hours.' });

    const sitemap = async () => (await t.app.inject({ url: '/sitemap.xml' })).body;
    expect(await sitemap()).toContain(`<loc>${TEST_PUBLIC_URL}/page/opening-hours</loc>`);

    expect((await send(user, 'PUT', '/api/admin/pages/opening-hours', { title: 'Hours', markdown: 'Closed on Sundays.' })).statusCode).toBe(204);
    expect((await send(undefined, 'GET', '/api/pages/opening-hours')).json<SitePage>()).toMatchObject({ title: 'Hours', html: '<p>Closed on Sundays.</p>\n' });
    expect((await send(user, 'GET', '/api/admin/pages')).json<SitePagesAdmin>().pages).toEqual([{ slug: 'opening-hours', title: 'Hours', markdown: 'Closed on Sundays.' }]);
    expect((await send(user, 'PUT', '/api/admin/pages/nowhere', { title: 'Hours', markdown: '' })).statusCode).toBe(404);

    expect((await send(user, 'DELETE', '/api/admin/pages/opening-hours')).statusCode).toBe(204);
    expect((await send(undefined, 'GET', '/api/pages/opening-hours')).statusCode).toBe(404);
    expect(await sitemap()).not.toContain('/page/opening-hours');
    expect((await send(user, 'DELETE', '/api/admin/pages/opening-hours')).statusCode).toBe(404);
    expect(await auditActions('opening-hours')).toEqual(['page.create', 'page.update', 'page.delete']);
  });

  it('previews Markdown as a page would show it, sanitised, without saving', async () => {
    const user = await asAdmin();
    const preview = await send(user, 'POST', '/api/admin/pages/preview', { markdown: '# Hi\n\n<script>x</script>*there*' });
    expect(preview.statusCode).toBe(200);
    expect(preview.json<{ html: string }>().html).toContain('<em>there</em>');
    expect(preview.json<{ html: string }>().html).not.toContain('<script');
    expect(await texts()).toEqual({ about: null, faq: null });
  });
});
