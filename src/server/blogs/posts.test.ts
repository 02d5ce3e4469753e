import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/role-schema.js';
import type { PostAuthors, PostsPage } from '../../shared/posts-schema.js';
import { REVIEW_NOTE_MAX_LENGTH } from '../../shared/posts-schema.js';
import { blogWrites } from '../testing/blog-writes.js';
import { mailsTo, waitForMail } from '../testing/auth-test-kit.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';

/**
 * Issue 59: Posts (every blog for editors and above, a writer's own for the rest, with what the
 * visitor may do per row) and the review queue's round trip, through the HTTP API.
 */
describe('Posts and the review queue', () => {
  const t = useTestApp();
  const writes = blogWrites(t);
  const ROLES = ['owner', 'administrator', 'editor', 'author', 'contributor', 'reader'] as const satisfies readonly Role[];
  const as = {} as Record<(typeof ROLES)[number], TestUser>;

  beforeAll(async () => {
    const users = await Promise.all(ROLES.map(() => signUpUser(t.app)));
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('role', '=', 'owner').execute();
    for (const [index, role] of ROLES.entries()) {
      as[role] = users[index]!;
      await t.database.db.updateTable('user').set({ role }).where('id', '=', users[index]!.id).execute();
    }
  });

  const request = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, remoteAddress: randomIp(), ...(payload ? { payload } : {}) });
  const posts = async (user: TestUser, query = '') => {
    const response = await request(user, 'GET', `/api/posts${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PostsPage>();
  };

  it('lists every blog for editors and above, a writer’s own for authors and contributors, with the actions each may take', async () => {
    const word = `posts${Date.now().toString(36)}`;
    const authors = await writes.create(as.author, { title: `${word} author’s`, tags: word });
    const contributors = await writes.create(as.contributor, { title: `${word} contributor’s`, status: 'draft' });
    const owners = await writes.create(as.owner, { title: `${word} owner’s draft`, status: 'draft' });

    const editorView = await posts(as.editor, `?q=${word}`);
    expect(editorView.scope).toBe('all');
    expect(editorView.items.map((row) => row.id).sort()).toEqual([authors.id, contributors.id, owners.id].sort());
    const row = editorView.items.find((item) => item.id === authors.id)!;
    expect(row).toMatchObject({ status: 'published', author: { id: as.author.id, email: as.author.email }, tags: [word] });
    // An editor edits, publishes and unpublishes anyone's; deleting anyone's is for administrators.
    expect(row.actions).toEqual({ edit: true, publish: false, unpublish: true, delete: false });
    expect(editorView.items.find((item) => item.id === owners.id)!.actions).toEqual({ edit: true, publish: true, unpublish: false, delete: false });
    expect((await posts(as.administrator, `?q=${word}`)).items.find((item) => item.id === authors.id)!.actions.delete).toBe(true);

    const authorView = await posts(as.author, `?q=${word}`);
    expect(authorView.scope).toBe('own');
    expect(authorView.items.map((item) => item.id)).toEqual([authors.id]);
    expect(authorView.items[0]!.actions).toEqual({ edit: true, publish: false, unpublish: true, delete: true });
    const contributorView = await posts(as.contributor, `?q=${word}`);
    expect(contributorView.items.map((item) => item.id)).toEqual([contributors.id]);
    // A contributor does not publish: they submit.
    expect(contributorView.items[0]!.actions).toEqual({ edit: true, publish: false, unpublish: false, delete: true });
    expect((await posts(as.reader, `?q=${word}`)).items).toEqual([]);
    // 'All my blogs': an editor's own only.
    const editorsOwn = await posts(as.editor, `?q=${word}&mine=true`);
    expect(editorsOwn).toMatchObject({ scope: 'own', items: [] });
    expect((await posts(as.owner, `?q=${word}&mine=true`)).items.map((item) => item.id)).toEqual([owners.id]);
    expect((await t.app.inject({ method: 'GET', url: '/api/posts' })).statusCode).toBe(401);
  });

  it('filters by status, author, tag and title, and pages by 20', async () => {
    const word = `filter${Date.now().toString(36)}`;
    const published = await writes.create(as.author, { title: `${word} one`, tags: 'alpha' });
    const draft = await writes.create(as.author, { title: `${word} two`, status: 'draft' });
    const submitted = await writes.create(as.contributor, { title: `${word} three`, status: 'draft' });
    expect((await request(as.contributor, 'POST', `/api/blogs/${submitted.id}/submit`)).statusCode).toBe(200);
    const ids = async (query: string) => (await posts(as.editor, `?q=${word}&${query}`)).items.map((row) => row.id);
    expect(await ids('status=published')).toEqual([published.id]);
    expect(await ids('status=draft')).toEqual([draft.id]);
    expect(await ids('status=submitted')).toEqual([submitted.id]);
    expect(await ids(`author=${as.contributor.id}`)).toEqual([submitted.id]);
    expect(await ids('tag=alpha')).toEqual([published.id]);
    expect((await request(as.editor, 'GET', '/api/posts?status=lost')).statusCode).toBe(400);
    // `%` in the search box is a percent sign, not every title.
    expect((await posts(as.editor, '?q=%25%25%25')).items).toEqual([]);

    const many = `paging${Date.now().toString(36)}`;
    for (let index = 0; index < 21; index += 1) await writes.create(as.editor, { title: `${many} ${index}`, status: 'draft' });
    const first = await posts(as.editor, `?q=${many}`);
    expect(first).toMatchObject({ page: 1, pageSize: 20, hasMore: true });
    expect(first.items).toHaveLength(20);
    const second = await posts(as.editor, `?q=${many}&page=2`);
    expect(second).toMatchObject({ page: 2, hasMore: false });
    expect(second.items.map((row) => row.title)).toEqual([`${many} 0`]);
  });

  it('offers every writer who has a blog to the Author filter, whatever page the list is on (editors and above)', async () => {
    const [early, silent] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    await t.database.db.updateTable('user').set({ display_name: 'Early Writer' }).where('id', '=', early.id).execute();
    const old = await writes.create(early, { title: 'Written before the rush', status: 'draft' });
    for (let index = 0; index < 21; index += 1) await writes.create(as.editor, { title: `rush ${index}`, status: 'draft' });
    const firstPage = await posts(as.editor);
    expect(firstPage.hasMore).toBe(true);
    expect(firstPage.items.map((row) => row.id)).not.toContain(old.id);
    expect(firstPage.items.map((row) => row.author.id)).not.toContain(early.id);

    const response = await request(as.editor, 'GET', '/api/posts/authors');
    expect(response.statusCode, response.body).toBe(200);
    const authors = response.json<PostAuthors>();
    expect(authors.hasMore).toBe(false);
    expect(authors.items).toContainEqual({ id: early.id, name: 'Early Writer', handle: expect.any(String), email: early.email });
    const ids = authors.items.map((author) => author.id);
    expect(ids).toContain(as.editor.id);
    // Only accounts that have a blog, each once.
    expect(ids).not.toContain(silent.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Filtering by that writer finds their blog.
    expect((await posts(as.editor, `?author=${early.id}`)).items.map((row) => row.id)).toEqual([old.id]);
    for (const role of ['author', 'contributor', 'reader'] as const) expect((await request(as[role], 'GET', '/api/posts/authors')).statusCode).toBe(404);
  });

  it('the review round trip: submit, listed, sent back with a note, mailed, resubmitted, published, mailed with its address', async () => {
    const draft = await writes.create(as.contributor, { title: 'Round trip', blog: 'Please read.', status: 'draft' });
    expect((await request(as.contributor, 'POST', `/api/blogs/${draft.id}/submit`)).statusCode).toBe(200);
    const listed = (await posts(as.editor, '?status=submitted')).items.find((row) => row.id === draft.id);
    expect(listed).toMatchObject({ status: 'submitted', submittedAt: expect.any(String) });
    expect((await posts(as.contributor, '?q=Round trip')).items[0]).toMatchObject({ id: draft.id, status: 'submitted' });
    const drafts = (await request(as.contributor, 'GET', '/api/drafts')).json<{ items: { id: string; submittedAt: string | null }[] }>();
    expect(drafts.items.find((item) => item.id === draft.id)!.submittedAt).not.toBeNull();

    // The editor sees who submitted it and when.
    const review = await request(as.editor, 'GET', `/api/posts/${draft.id}/review`);
    expect(review.json()).toEqual({ submittedAt: listed!.submittedAt, submittedBy: { name: expect.any(String), email: as.contributor.email } });
    expect((await request(as.author, 'GET', `/api/posts/${draft.id}/review`)).statusCode).toBe(404);

    // A note is required, and not endless.
    expect((await request(as.editor, 'POST', `/api/blogs/${draft.id}/send-back`, { note: '  ' })).statusCode).toBe(400);
    expect((await request(as.editor, 'POST', `/api/blogs/${draft.id}/send-back`, { note: 'x'.repeat(REVIEW_NOTE_MAX_LENGTH + 1) })).statusCode).toBe(400);
    const sent = await request(as.editor, 'POST', `/api/blogs/${draft.id}/send-back`, { note: 'The second paragraph needs a source.\nThanks!' });
    expect(sent.statusCode, sent.body).toBe(204);
    const mail = await waitForMail(t, as.contributor.email, /sent back/);
    expect(mail.text).toContain('> The second paragraph needs a source.');
    expect(mail.text).toContain('> Thanks!');
    expect((await posts(as.editor, `?q=Round trip`)).items[0]).toMatchObject({ id: draft.id, status: 'draft', submittedAt: null });
    // Sending back what no longer waits is refused.
    expect((await request(as.editor, 'POST', `/api/blogs/${draft.id}/send-back`, { note: 'Again' })).statusCode).toBe(400);

    // Resubmitted, then published by the editor through the blog's write (the one visibility event).
    expect((await request(as.contributor, 'POST', `/api/blogs/${draft.id}/submit`)).statusCode).toBe(200);
    expect((await posts(as.editor, `?q=Round trip`)).items[0]!.status).toBe('submitted');
    const published = await writes.edit(as.editor, draft.id, { title: 'Round trip', blog: 'Read and published.', status: 'published' });
    expect(published).toMatchObject({ status: 'published', submittedAt: null });
    const publishedMail = await waitForMail(t, as.contributor.email, /published/);
    expect(publishedMail.text).toContain(`${TEST_PUBLIC_URL}/blog/${published.slug}`);
    expect((await posts(as.editor, `?q=Round trip`)).items[0]!.status).toBe('published');
    // An author publishing their own blog mails nobody about it.
    const own = await writes.create(as.author, { title: 'Mine alone', status: 'draft' });
    await writes.edit(as.author, own.id, { title: 'Mine alone', status: 'published' });
    expect((await mailsTo(t, as.author.email)).filter((m) => /published/.test(m.subject))).toEqual([]);
  });
});
