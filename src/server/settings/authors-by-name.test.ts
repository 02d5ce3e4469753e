// test-plan: PGlite only (what every public surface says; the setting is one more field of the settings' JSON row, whose SQL site-settings.postgres.test.ts covers)
import { describe, expect, it } from 'vitest';
import type { AuthorPage, Blog } from '../../shared/blog-schema.js';
import { paths } from '../../shared/paths.js';
import { seedSubscribers } from '../subscriptions/seed-subscribers.js';
import { waitForMail } from '../testing/auth-test-kit.js';
import { giveRole, saveSettings, settingsWith } from '../testing/site-managers.js';
import { postBlog } from '../testing/test-blogs.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers, type TestUser } from '../testing/test-users.js';

const AP = 'application/activity+json';
const EMAIL_TERMS = 'The e-mail address of your account is shown publicly as the author of each of your posts.';

describe("'Show authors by': Name (issue 58)", () => {
  // The response cache on: what was cached while authors were shown by e-mail must not be served after the change.
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' }, { pages: 'vite' });
  const { admin, named, unnamed, commenter } = useSignedUpUsers(t, ['admin', 'named', 'unnamed', 'commenter']);

  const setProfile = async (user: TestUser, displayName: string | null) => {
    const current = await t.app.inject({ url: '/api/account/profile', headers: { cookie: user.cookie } });
    const { handle } = current.json<{ handle: string }>();
    const saved = await t.app.inject({ method: 'PUT', url: '/api/account/profile', headers: { cookie: user.cookie, origin: TEST_PUBLIC_URL }, payload: { handle, displayName } });
    expect(saved.statusCode, saved.body).toBe(200);
    return handle;
  };
  const get = async (url: string, accept?: string) => {
    const response = await t.app.inject({ url, headers: accept ? { accept } : {} });
    expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
    // React's markers between a text and a value ('Author: <!-- -->Maya') are no part of what a reader sees.
    return response.body.replaceAll('<!-- -->', '');
  };

  it('names every author by display name (else handle) on every public surface, and never by e-mail; the default shows e-mails', { timeout: 180_000 }, async () => {
    await giveRole(t, admin, 'administrator');
    if (await t.database.db.selectFrom('site_settings').select('id').executeTakeFirst()) expect((await saveSettings(t, admin, settingsWith())).statusCode).toBe(200);
    await setProfile(named, 'Maya Quay');
    const handle = await setProfile(unnamed, null);
    const blog = await postBlog(t.app, named, { title: 'Harbour wall repairs', blog: 'The wall **stays** open.' });
    const other = await postBlog(t.app, unnamed, { title: 'Harbour lights', blog: 'Lit at dusk.' });
    const commented = await t.app.inject({ method: 'POST', url: `/api/blogs/${blog.id}/comments`, headers: { cookie: commenter.cookie, origin: TEST_PUBLIC_URL }, payload: { body: 'Good to know.' } });
    expect(commented.statusCode, commented.body).toBe(201);
    const commenterHandle = (await t.app.inject({ url: '/api/account/profile', headers: { cookie: commenter.cookie } })).json<{ handle: string }>().handle;

    // The spec's default, and what the cache now holds: authors by e-mail.
    expect((await t.app.inject({ url: `/api/blogs/${blog.id}` })).json<Blog>().author).toBe(named.email);
    expect(await get('/rss.xml')).toContain(`<author>${named.email}</author>`);
    expect(await get(paths.author(named.id))).toContain(`Blogs by ${named.email}`);
    expect(await get('/about')).toContain(EMAIL_TERMS);
    expect(await get(`/api/blogs/${blog.id}/comments`)).toContain(commenter.email);
    expect(await get('/support')).toContain('your e-mail address signs you in and is shown as the author of your posts.');

    expect((await saveSettings(t, admin, settingsWith({ showAuthorsBy: 'name' }))).statusCode).toBe(200);
    // A subscriber of the named author hears of the next blog.
    await seedSubscribers(t.database.db, named.id, 1);
    const announced = await postBlog(t.app, named, { title: 'Harbour fair', blog: 'Saturday, on the quay.' });

    const emails = [named.email, unnamed.email, commenter.email];
    const surfaces: Record<string, string> = {
      'the list API': await get('/api/blogs'),
      'the blog API': await get(`/api/blogs/${blog.id}`),
      "the author's API": await get(`/api/authors/${named.id}/blogs`),
      'search API': await get(`/api/search?searchTerm=Harbour`),
      'search in text API': await get(`/api/search?searchTerm=quay&in=all`),
      'comments API': await get(`/api/blogs/${blog.id}/comments`),
      home: await get('/'),
      'blog page': await get(paths.viewBlog(blog.id)),
      'author page': await get(paths.author(named.id)),
      "handle-only author's page": await get(paths.author(unnamed.id)),
      'search page': await get(paths.search('Harbour')),
      about: await get('/about'),
      support: await get('/support'),
      RSS: await get('/rss.xml'),
      Atom: await get('/atom.xml'),
      'JSON Feed': await get('/feed.json'),
      "author's RSS": await get(paths.rss(named.id)),
      "author's Atom": await get(paths.atom(named.id)),
      "author's JSON Feed": await get(paths.jsonFeed(named.id)),
      'ActivityPub article': await get(paths.viewBlog(blog.id), AP),
      'ActivityPub actor': await get(`/users/${handle}`, AP),
    };
    const mail = await waitForMail(t, 'subscriber-1@example.test', /Harbour fair/);
    surfaces['new-post mail'] = `${mail.subject}\n${mail.text}\n${mail.html ?? ''}`;
    for (const [surface, body] of Object.entries(surfaces)) {
      for (const email of emails) expect(body, `${surface} shows ${email}`).not.toContain(email);
    }

    // The display name, or the handle where there is none.
    const blogJson = JSON.parse(surfaces['the blog API']!) as Blog;
    expect(blogJson.author).toBe('Maya Quay');
    expect((JSON.parse(surfaces['the list API']!) as { items: Blog[] }).items.find((item) => item.id === other.id)?.author).toBe(handle);
    const authorPage = JSON.parse(surfaces["the author's API"]!) as AuthorPage;
    expect(authorPage.author).toMatchObject({ id: named.id, name: 'Maya Quay' });
    expect(authorPage.author).not.toHaveProperty('email');
    expect(surfaces['search API']).toContain('"author":"Maya Quay"');
    expect(surfaces['search in text API']).toContain('"author":"Maya Quay"');
    expect(surfaces['comments API']).toContain(`"author":"${commenterHandle}"`);
    expect(surfaces.home).toContain('Author: Maya Quay');
    expect(surfaces.home).toContain(`Author: ${handle}`);
    expect(surfaces['blog page']).toContain('Author: Maya Quay');
    expect(surfaces['blog page']).toMatch(/"author":\{"@type":"Person","name":"Maya Quay"\}/);
    expect(surfaces['author page']).toContain('<title>Blogs by Maya Quay');
    expect(surfaces["handle-only author's page"]).toContain(`Blogs by ${handle}`);
    expect(surfaces['search page']).toContain('Author: Maya Quay');
    expect(surfaces.about).not.toContain(EMAIL_TERMS);
    expect(surfaces.about).toContain('your e-mail address is never shown');
    expect(surfaces.support).not.toContain('signs you in and is shown as the author of your posts');
    expect(surfaces.support).toContain('your e-mail address signs you in and is never shown');
    // The spec's texts the 'Pages' box starts from say the same, so a first edit does not bring the e-mail sentence back.
    const pagesBox = await t.app.inject({ url: '/api/admin/pages', headers: { cookie: admin.cookie } });
    expect(pagesBox.statusCode, pagesBox.body).toBe(200);
    expect(pagesBox.body).not.toContain(EMAIL_TERMS);
    expect(pagesBox.body).toContain('your e-mail address is never shown');
    expect(pagesBox.body).not.toContain('signs you in and is shown as the author');
    expect(surfaces.RSS).toContain('<dc:creator>Maya Quay</dc:creator>');
    expect(surfaces.RSS).toContain('xmlns:dc="http://purl.org/dc/elements/1.1/"');
    expect(surfaces.Atom).toMatch(/<author>\s*<name>Maya Quay<\/name>\s*<\/author>/);
    expect(surfaces['JSON Feed']).toMatch(/"authors":\s*\[\s*\{\s*"name":\s*"Maya Quay"/);
    expect(surfaces["author's RSS"]).toContain('<title>Maya Quay · Blogging Site</title>');
    expect(surfaces['ActivityPub actor']).toContain(handle);
    expect(mail.subject).toBe(`Maya Quay published “${announced.title}”`);
    expect(mail.text).toContain('by Maya Quay');

    // Back to e-mail: the spec's texts again, nothing cached from 'Name'.
    expect((await saveSettings(t, admin, settingsWith())).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/blogs/${blog.id}` })).json<Blog>().author).toBe(named.email);
    expect((await t.app.inject({ url: `/api/authors/${named.id}/blogs` })).json<AuthorPage>().author).toMatchObject({ name: named.email, email: named.email });
    expect(await get('/about')).toContain(EMAIL_TERMS);
  });
});
