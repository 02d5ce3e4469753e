import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/role-schema.js';
import { blogWrites } from '../testing/blog-writes.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';

/**
 * Issue 44: every role × every action, through the HTTP API as the browser sends it, allowed and
 * refused. One app; one account per role, its role written in the database as /admin would.
 */
describe('what each role may do, checked by the server on every request', () => {
  const t = useTestApp();
  const writes = blogWrites(t);
  const ROLES: Role[] = ['owner', 'administrator', 'editor', 'author', 'contributor', 'reader'];
  const as = {} as Record<Role, TestUser>;
  let victim: TestUser;

  beforeAll(async () => {
    // Signed up while the test kit's owner holds the seat (so all are authors); then it steps down,
    // so that one of these signed-in accounts holds it.
    const users = await Promise.all([...ROLES, 'victim'].map(() => signUpUser(t.app)));
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('role', '=', 'owner').execute();
    for (const [index, role] of ROLES.entries()) {
      as[role] = users[index]!;
      await t.database.db.updateTable('user').set({ role }).where('id', '=', users[index]!.id).execute();
    }
    victim = users[ROLES.length]!;
  });

  const request = (user: TestUser, method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, remoteAddress: randomIp(), ...(payload ? { payload } : {}) });
  const othersBlog = () => writes.create(victim, { title: 'Somebody else’s', blog: 'Their words.' });

  const table: { action: string; allowed: Role[]; run: (user: TestUser) => Promise<number> }[] = [
    { action: 'publish a new blog', allowed: ['owner', 'administrator', 'editor', 'author'], run: async (user) => (await writes.send('POST', '/api/blogs', user, { title: 'Mine', blog: 'Words.' })).statusCode },
    { action: 'schedule a new blog', allowed: ['owner', 'administrator', 'editor', 'author'], run: async (user) => (await writes.send('POST', '/api/blogs', user, { title: 'Later', blog: 'Words.', publishAt: new Date(Date.now() + 86_400_000).toISOString() })).statusCode },
    { action: 'write a draft', allowed: ['owner', 'administrator', 'editor', 'author', 'contributor'], run: async (user) => (await writes.send('POST', '/api/blogs', user, { title: 'Draft', blog: 'Words.', status: 'draft' })).statusCode },
    {
      action: 'edit someone else’s blog',
      allowed: ['owner', 'administrator', 'editor'],
      run: async (user) => (await writes.send('PATCH', `/api/blogs/${(await othersBlog()).id}`, user, { title: 'Changed', blog: 'Changed.' })).statusCode,
    },
    {
      action: 'unpublish someone else’s blog',
      allowed: ['owner', 'administrator', 'editor'],
      run: async (user) => (await writes.send('PATCH', `/api/blogs/${(await othersBlog()).id}`, user, { title: 'Back', blog: 'To draft.', status: 'draft' })).statusCode,
    },
    { action: 'delete someone else’s blog', allowed: ['owner', 'administrator'], run: async (user) => (await request(user, 'DELETE', `/api/blogs/${(await othersBlog()).id}`)).statusCode },
    { action: 'vote', allowed: ROLES, run: async (user) => (await request(user, 'PUT', `/api/blogs/${(await othersBlog()).id}/vote`, { direction: 'up' })).statusCode },
    { action: 'moderate', allowed: ['owner', 'administrator', 'editor'], run: async (user) => (await request(user, 'GET', '/api/moderation')).statusCode },
    { action: 'list people', allowed: ['owner', 'administrator'], run: async (user) => (await request(user, 'GET', '/api/admin/people')).statusCode },
    { action: 'list invitations', allowed: ['owner', 'administrator'], run: async (user) => (await request(user, 'GET', '/api/admin/invitations')).statusCode },
    {
      action: 'give an author a role',
      allowed: ['owner', 'administrator'],
      run: async (user) => (await request(user, 'PUT', `/api/admin/people/${victim.id}/role`, { role: 'author' })).statusCode,
    },
  ];

  describe.each(table)('$action', ({ allowed, run }) => {
    it.each(ROLES)('as %s', async (role) => {
      const status = await run(as[role]);
      if (allowed.includes(role)) expect(status).toBeLessThan(300);
      // Blogs answer 403 with the reason; /admin's and moderation's routes the 404 of a page that does not exist.
      else expect([403, 404]).toContain(status);
    });
  });

  it('tells a contributor and a reader why, in words', async () => {
    const contributor = await writes.send('POST', '/api/blogs', as.contributor, { title: 'Mine', blog: 'Words.' });
    expect(contributor.json()).toMatchObject({ error: 'FORBIDDEN', message: expect.stringContaining('Submit your draft for review') });
    const reader = await writes.send('POST', '/api/blogs', as.reader, { title: 'Mine', blog: 'Words.', status: 'draft' });
    expect(reader.statusCode).toBe(403);
    expect(reader.json().message).toContain('not write blogs');
    // An author still gets the spec's answer for another author's blog.
    const author = await writes.send('PATCH', `/api/blogs/${(await othersBlog()).id}`, as.author, { title: 'x', blog: 'y' });
    expect(author.statusCode).toBe(403);
    expect(author.json().message).toBe('You can only change your own blogs.');
  });

  it('a contributor submits a draft; the editors are mailed; an editor opens it, edits and publishes it', async () => {
    const draft = await writes.create(as.contributor, { title: 'For review', blog: 'Please read.', status: 'draft' });
    const submitted = await request(as.contributor, 'POST', `/api/blogs/${draft.id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    await t.settled();
    const mail = await t.outbox();
    for (const reviewer of [as.owner, as.administrator, as.editor]) {
      expect(mail.some((m) => m.to === reviewer.email && /waits for your review/.test(m.subject))).toBe(true);
    }
    expect(mail.some((m) => m.to === as.author.email && /review/.test(m.subject))).toBe(false);
    const row = await t.database.db.selectFrom('blogs').select('submitted_at').where('id', '=', draft.id).executeTakeFirstOrThrow();
    expect(row.submitted_at).not.toBeNull();
    // Someone else's draft is not there for an author; an editor opens it to edit it.
    expect((await request(as.author, 'GET', `/api/blogs/${draft.id}`)).statusCode).toBe(404);
    expect((await request(as.editor, 'GET', `/api/blogs/${draft.id}`)).statusCode).toBe(200);
    const published = await writes.edit(as.editor, draft.id, { title: 'For review', blog: 'Read and published.', status: 'published' });
    expect(published).toMatchObject({ status: 'published', userId: as.contributor.id });
    const after = await t.database.db.selectFrom('blogs').select('submitted_at').where('id', '=', draft.id).executeTakeFirstOrThrow();
    expect(after.submitted_at).toBeNull();
    // Published through the one recorded path: its event is queued like any publish.
    const events = await t.database.db.selectFrom('queued_jobs').select('payload').where('kind', '=', 'blog-event').execute();
    expect(events.some((job) => JSON.stringify(job.payload).includes(draft.id) && JSON.stringify(job.payload).includes('published'))).toBe(true);
  });

  it('with reviewNewBlogs, an author’s new blog is submitted instead of published; editors still publish', async () => {
    const access = t.app.siteSettings;
    await access.save({ ...(await access.get()), reviewNewBlogs: true });
    try {
      const response = await writes.send('POST', '/api/blogs', as.author, { title: 'New', blog: 'Words.' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ status: 'draft' });
      const row = await t.database.db.selectFrom('blogs').select('submitted_at').where('id', '=', response.json().id).executeTakeFirstOrThrow();
      expect(row.submitted_at).not.toBeNull();
      expect((await writes.create(as.editor, { title: 'Editor’s', blog: 'Words.' })).status).toBe('published');
    } finally {
      await access.save({ ...(await access.get()), reviewNewBlogs: false });
    }
  });
});
