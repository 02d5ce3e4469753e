// test-plan: PGlite only (what the server-rendered pages show; the SQL is site-pages.test.ts's)
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { giveRole, saveSettings, settingsWith } from '../testing/site-managers.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers, type TestUser } from '../testing/test-users.js';

/** The page's main text as the server sent it: the About article, or Support's questions. */
function mainOf(html: string, name: 'article' | 'accordion') {
  const document = parseDocument(html);
  const found = DomUtils.findOne(
    (element) => (name === 'article' ? element.name === 'article' : element.attribs.class?.split(' ').includes('accordion') === true),
    document.children,
    true,
  );
  return found ? DomUtils.getOuterHTML(found) : undefined;
}

describe('pages the owner writes (issue 58), as the server renders them', () => {
  // The response cache on: a page kept before a save must not be served after it.
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' }, { pages: 'vite' });
  const { admin } = useSignedUpUsers(t, ['admin']);
  const send = (user: TestUser, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, ...(payload ? { payload } : {}) });
  const page = async (url: string) => (await t.app.inject({ url })).body;

  it('shows the spec’s About and Support until the owner saves, theirs after, and the spec’s again on reset', { timeout: 180_000 }, async () => {
    await giveRole(t, admin, 'administrator');
    const about = mainOf(await page('/about'), 'article')!;
    const support = mainOf(await page('/support'), 'accordion')!;
    expect(about).toContain('began in 2024 as a university computer-science project');
    expect(about).toContain('<h2 class="h4 mt-4">Terms of service</h2>');
    expect(support).toContain('How do I get started?');
    expect(support).toContain('Yes. Reading, writing, voting and the AI Blog Generator are all free.');

    expect((await send(admin, 'PUT', '/api/admin/site-texts/about', { markdown: 'Harbour Notes is written by the **harbour** club.\n\n## Terms\n\nBe kind.' })).statusCode).toBe(204);
    expect((await send(admin, 'PUT', '/api/admin/site-texts/faq', { entries: [{ question: 'When is the harbour open?', answer: 'From *dawn* to dusk.' }] })).statusCode).toBe(204);
    const ownAbout = mainOf(await page('/about'), 'article')!;
    expect(ownAbout).toContain('<strong>harbour</strong> club');
    expect(ownAbout).not.toContain('university');
    const ownSupport = mainOf(await page('/support'), 'accordion')!;
    expect(ownSupport).toContain('When is the harbour open?');
    expect(ownSupport).toContain('<em>dawn</em>');
    expect(ownSupport).not.toContain('How do I get started?');

    expect((await send(admin, 'DELETE', '/api/admin/site-texts/about')).statusCode).toBe(204);
    expect((await send(admin, 'DELETE', '/api/admin/site-texts/faq')).statusCode).toBe(204);
    expect(mainOf(await page('/about'), 'article')).toBe(about);
    expect(mainOf(await page('/support'), 'accordion')).toBe(support);
  });

  it('renders a page of the owner’s at /page/<address>, sanitised, linkable from the navigation, and a 404 for none', { timeout: 180_000 }, async () => {
    await giveRole(t, admin, 'administrator');
    expect((await t.app.inject({ url: '/page/opening-hours' })).statusCode).toBe(404);
    const created = await send(admin, 'POST', '/api/admin/pages', { title: 'Opening hours', slug: 'opening-hours', markdown: 'Open **9 to 5**.\n\n<script>alert(1)</script>' });
    expect(created.statusCode).toBe(201);
    expect((await saveSettings(t, admin, settingsWith({ navigation: [{ label: 'Hours', url: '/page/opening-hours' }] }))).statusCode).toBe(200);

    const response = await t.app.inject({ url: '/page/opening-hours' });
    expect(response.statusCode).toBe(200);
    const article = mainOf(response.body, 'article')!;
    expect(article).toContain('<h1>Opening hours</h1>');
    expect(article).toContain('<strong>9 to 5</strong>');
    expect(article).not.toContain('<script');
    expect(response.body).toMatch(/<title>Opening hours[^<]*<\/title>/);
    expect(response.body).toContain(`<link rel="canonical" href="${TEST_PUBLIC_URL}/page/opening-hours"`);
    expect(response.body).toMatch(/<a[^>]*href="\/page\/opening-hours"[^>]*>Hours<\/a>/);
  });
});
