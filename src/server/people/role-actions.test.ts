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
  const WRITERS: Role[] = ['owner', 'administrator', 'editor', 'author', 'contributor'];
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
  /** One blog for every role's try (the victim's creations are limited per account): asking again for the status it has answers 200 and changes nothing. */
  const shared = new Map<string, Promise<{ id: string }>>();
  const once = (name: string, make: () => Promise<{ id: string }>) => shared.get(name) ?? shared.set(name, make()).get(name)!;

  const table: { action: string; routes: string[]; allowed: Role[]; run: (user: TestUser) => Promise<number> }[] = [
    { action: 'publish a new blog', routes: ['POST /api/blogs'], allowed: ['owner', 'administrator', 'editor', 'author'], run: async (user) => (await writes.send('POST', '/api/blogs', user, { title: 'Mine', blog: 'Words.' })).statusCode },
    { action: 'schedule a new blog', routes: ['POST /api/blogs'], allowed: ['owner', 'administrator', 'editor', 'author'], run: async (user) => (await writes.send('POST', '/api/blogs', user, { title: 'Later', blog: 'Words.', publishAt: new Date(Date.now() + 86_400_000).toISOString() })).statusCode },
    { action: 'write a draft', routes: ['POST /api/blogs'], allowed: ['owner', 'administrator', 'editor', 'author', 'contributor'], run: async (user) => (await writes.send('POST', '/api/blogs', user, { title: 'Draft', blog: 'Words.', status: 'draft' })).statusCode },
    {
      action: 'edit someone else’s blog',
      routes: ['PATCH /api/blogs/{id}'],
      allowed: ['owner', 'administrator', 'editor'],
      run: async (user) => (await writes.send('PATCH', `/api/blogs/${(await othersBlog()).id}`, user, { title: 'Changed', blog: 'Changed.' })).statusCode,
    },
    {
      action: 'unpublish someone else’s blog',
      routes: ['PATCH /api/blogs/{id}'],
      allowed: ['owner', 'administrator', 'editor'],
      run: async (user) => (await writes.send('PATCH', `/api/blogs/${(await othersBlog()).id}`, user, { title: 'Back', blog: 'To draft.', status: 'draft' })).statusCode,
    },
    // Issue 59: Posts' 'Publish' and 'Unpublish', the status alone (someone else's blog a writer may not change answers 404).
    {
      action: 'publish someone else’s draft from Posts',
      routes: ['POST /api/blogs/{id}/publish'],
      allowed: ['owner', 'administrator', 'editor'],
      run: async (user) => (await request(user, 'POST', `/api/blogs/${(await once('draft', () => writes.create(victim, { title: 'Their draft', blog: 'Their words.', status: 'draft' }))).id}/publish`)).statusCode,
    },
    {
      action: 'unpublish someone else’s blog from Posts',
      routes: ['POST /api/blogs/{id}/unpublish'],
      allowed: ['owner', 'administrator', 'editor'],
      run: async (user) => (await request(user, 'POST', `/api/blogs/${(await once('published', othersBlog)).id}/unpublish`)).statusCode,
    },
    { action: 'delete someone else’s blog', routes: ['DELETE /api/blogs/{id}'], allowed: ['owner', 'administrator'], run: async (user) => (await request(user, 'DELETE', `/api/blogs/${(await othersBlog()).id}`)).statusCode },
    { action: 'vote', routes: ['PUT /api/blogs/{id}/vote'], allowed: ROLES, run: async (user) => (await request(user, 'PUT', `/api/blogs/${(await othersBlog()).id}/vote`, { direction: 'up' })).statusCode },
    { action: 'moderate', routes: [], allowed: ['owner', 'administrator', 'editor'], run: async (user) => (await request(user, 'GET', '/api/moderation')).statusCode },
    { action: 'list people', routes: [], allowed: ['owner', 'administrator'], run: async (user) => (await request(user, 'GET', '/api/admin/people')).statusCode },
    { action: 'list invitations', routes: [], allowed: ['owner', 'administrator'], run: async (user) => (await request(user, 'GET', '/api/admin/invitations')).statusCode },
    {
      action: 'give an author a role',
      routes: ['PUT /api/admin/people/{id}/role'],
      allowed: ['owner', 'administrator'],
      run: async (user) => (await request(user, 'PUT', `/api/admin/people/${victim.id}/role`, { role: 'author' })).statusCode,
    },
    { action: 'take back a vote', routes: ['DELETE /api/blogs/{id}/vote'], allowed: ROLES, run: async (user) => (await request(user, 'DELETE', `/api/blogs/${(await othersBlog()).id}/vote`)).statusCode },
    { action: 'comment', routes: ['POST /api/blogs/{id}/comments'], allowed: ROLES, run: async (user) => (await request(user, 'POST', `/api/blogs/${(await othersBlog()).id}/comments`, { body: 'A word.' })).statusCode },
    {
      action: 'submit a draft for review',
      routes: ['POST /api/blogs/{id}/submit'],
      allowed: ['owner', 'administrator', 'editor', 'contributor'],
      run: async (user) => {
        // A reader has no draft of their own: theirs to try is somebody else's.
        const draft = user === as.reader ? await writes.create(victim, { title: 'Theirs', status: 'draft' }) : await writes.create(user, { title: 'Mine to submit', status: 'draft' });
        return (await request(user, 'POST', `/api/blogs/${draft.id}/submit`)).statusCode;
      },
    },
    {
      action: 'take the image off someone else’s blog',
      routes: ['DELETE /api/blogs/{id}/image'],
      allowed: ['owner', 'administrator', 'editor'],
      run: async (user) => (await request(user, 'DELETE', `/api/blogs/${(await othersBlog()).id}/image`)).statusCode,
    },
    // Issue 56: a Reader ran the generator (a paid provider costs money per blog). The offline generator answers here.
    { action: 'generate a blog with AI', routes: ['POST /api/ai/generate'], allowed: ['owner', 'administrator', 'editor', 'author', 'contributor'], run: async (user) => (await request(user, 'POST', '/api/ai/generate')).statusCode },
  ];

  /**
   * Routes whose guard runs before anything else about the request (`onRequest`: /admin's,
   * moderation's, imports), asked with a request that is wrong in every other way, so nothing
   * changes: a refused role gets the guard's 404; an allowed one gets past it, to the route's own
   * answer (its 400 for the body, or its own 404 for the unknown id, in its own words).
   */
  const missing = '00000000-0000-4000-8000-000000000000';
  const guarded: { route: string; allowed: Role[]; send: (user: TestUser) => ReturnType<typeof request> }[] = [
    { route: 'PUT /api/admin/settings', allowed: ['owner', 'administrator'], send: (user) => request(user, 'PUT', '/api/admin/settings', {}) },
    { route: 'POST /api/admin/settings/logo', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/settings/logo', {}) },
    { route: 'POST /api/admin/settings/icon', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/settings/icon', {}) },
    { route: 'PUT /api/admin/people/{id}/suspension', allowed: ['owner', 'administrator'], send: (user) => request(user, 'PUT', `/api/admin/people/${victim.id}/suspension`, {}) },
    { route: 'DELETE /api/admin/people/{id}', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', `/api/admin/people/${victim.id}`, { blogs: 'nonsense' }) },
    { route: 'POST /api/admin/invitations', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/invitations', {}) },
    { route: 'DELETE /api/admin/invitations/{id}', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', `/api/admin/invitations/${missing}`) },
    { route: 'POST /api/admin/ownership', allowed: ['owner'], send: (user) => request(user, 'POST', '/api/admin/ownership', {}) },
    { route: 'POST /api/admin/webhooks', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/webhooks', {}) },
    { route: 'DELETE /api/admin/webhooks/{id}', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', `/api/admin/webhooks/${missing}`) },
    { route: 'POST /api/admin/webhooks/{id}/test', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', `/api/admin/webhooks/${missing}/test`) },
    { route: 'POST /api/admin/integrations', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/integrations', {}) },
    { route: 'POST /api/admin/integrations/{id}/regenerate', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', `/api/admin/integrations/${missing}/regenerate`) },
    { route: 'DELETE /api/admin/integrations/{id}', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', `/api/admin/integrations/${missing}`) },
    // The editor's preview and its inline images: for those whose role writes blogs (a reader could render and store at will).
    { route: 'POST /api/blogs/preview', allowed: WRITERS, send: (user) => request(user, 'POST', '/api/blogs/preview', {}) },
    { route: 'POST /api/blog-images', allowed: WRITERS, send: (user) => request(user, 'POST', '/api/blog-images', {}) },
    { route: 'POST /api/admin/pages', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/pages', {}) },
    { route: 'POST /api/admin/pages/preview', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/pages/preview', {}) },
    { route: 'PUT /api/admin/pages/{slug}', allowed: ['owner', 'administrator'], send: (user) => request(user, 'PUT', '/api/admin/pages/none', {}) },
    { route: 'DELETE /api/admin/pages/{slug}', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', '/api/admin/pages/none') },
    { route: 'PUT /api/admin/site-texts/about', allowed: ['owner', 'administrator'], send: (user) => request(user, 'PUT', '/api/admin/site-texts/about', {}) },
    { route: 'PUT /api/admin/site-texts/faq', allowed: ['owner', 'administrator'], send: (user) => request(user, 'PUT', '/api/admin/site-texts/faq', {}) },
    // Nothing saved yet: putting the spec's text back changes nothing.
    { route: 'DELETE /api/admin/site-texts/about', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', '/api/admin/site-texts/about') },
    { route: 'DELETE /api/admin/site-texts/faq', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', '/api/admin/site-texts/faq') },
    { route: 'DELETE /api/admin/subscribers/{id}', allowed: ['owner', 'administrator'], send: (user) => request(user, 'DELETE', `/api/admin/subscribers/${missing}`) },
    { route: 'POST /api/admin/subscribers/import', allowed: ['owner', 'administrator'], send: (user) => request(user, 'POST', '/api/admin/subscribers/import', {}) },
    { route: 'POST /api/moderation/actions', allowed: ['owner', 'administrator', 'editor'], send: (user) => request(user, 'POST', '/api/moderation/actions', {}) },
    { route: 'POST /api/moderation/queue/{id}/retry', allowed: ['owner', 'administrator', 'editor'], send: (user) => request(user, 'POST', `/api/moderation/queue/${'x'.repeat(31)}/retry`) },
    { route: 'POST /api/imports', allowed: ['owner', 'administrator', 'editor'], send: (user) => request(user, 'POST', '/api/imports', {}) },
    // Issue 59: the review queue's 'Send back'.
    { route: 'POST /api/blogs/{id}/send-back', allowed: ['owner', 'administrator', 'editor'], send: (user) => request(user, 'POST', `/api/blogs/${missing}/send-back`, {}) },
  ];

  /** What each remaining route that changes something is open to, and why no role decides it. */
  const OPEN_TO_EVERY_ACCOUNT = [
    // The caller's own account, sessions and mail settings.
    'DELETE /api/account',
    'PUT /api/account/profile',
    'DELETE /api/account/sessions/{id}',
    'POST /api/account/sessions/end-others',
    'POST /api/account/fresh-proof',
    'PUT /api/settings/comment-emails',
    'DELETE /api/settings/subscriptions/{id}',
    // The caller's own comment (or a comment on the caller's own blog): ownership, not role.
    'PATCH /api/comments/{id}',
    'DELETE /api/comments/{id}',
    // Every signed-in account may report (one open report per item each).
    'POST /api/reports',
    // Following and replying on the fediverse are the caller's own, like commenting.
    'POST /api/federation/following',
    'DELETE /api/federation/following',
    'POST /api/federation/replies',
    // The invitation's token decides, not the role.
    'POST /api/invitations/accept',
    // IndieAuth (issue 60): any account may let an app sign in as itself, and revoke it; a token acts within its author's role.
    'POST /api/indieauth/authorization',
    'DELETE /api/account/apps/{id}',
  ];
  /** Open to anyone, signed in or not: a token in a mail or nothing at all decides. */
  const PUBLIC = [
    'POST /api/contact',
    'POST /api/account/not-me',
    'POST /api/comment-emails/unsubscribe',
    'POST /unsubscribe',
    'POST /api/subscriptions',
    'POST /api/subscriptions/confirm',
    'POST /api/subscriptions/unsubscribe',
    'POST /subscription/unsubscribe',
    // IndieAuth's protocol (issue 60): the code, its PKCE verifier or the token decides.
    'POST /indieauth/authorize',
    'POST /indieauth/token',
    'POST /indieauth/revoke',
    'POST /indieauth/introspect',
    // Micropub (issue 60): an app's token decides, within its scopes and its author's role (blogs/micropub.test.ts).
    'POST /micropub',
    'POST /micropub/media',
  ];

  describe.each(table)('$action', ({ allowed, run }) => {
    it.each(ROLES)('as %s', async (role) => {
      const status = await run(as[role]);
      if (allowed.includes(role)) expect(status).toBeLessThan(300);
      // Blogs answer 403 with the reason; /admin's and moderation's routes the 404 of a page that does not exist.
      else expect([403, 404]).toContain(status);
    });
  });

  describe.each(guarded)('$route, behind its guard', ({ route, allowed, send }) => {
    it.each(ROLES)('as %s', async (role) => {
      const response = await send(as[role]);
      const refusedByGuard = response.statusCode === 404 && response.json().message === 'Not found.';
      if (allowed.includes(role)) {
        expect(refusedByGuard, `${route}: ${response.body}`).toBe(false);
        expect([401, 403]).not.toContain(response.statusCode);
      } else expect(refusedByGuard, `${route}: ${response.body}`).toBe(true);
    });
  });

  it('has every route that changes something in the table, or says who it is open to', () => {
    // Every route the app documents (Better Auth's own `/api/auth/*`, hidden from the document, answers for itself).
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const changing = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => !['get', 'head', 'options'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const accounted = new Set([...table.flatMap((row) => row.routes), ...guarded.map((row) => row.route), ...OPEN_TO_EVERY_ACCOUNT, ...PUBLIC]);
    expect(changing.filter((route) => !accounted.has(route)), 'a new route: add it to the table (with the roles of core/roles.ts) or to a list that says who it is open to').toEqual([]);
    expect([...accounted].filter((route) => !changing.includes(route)), 'a route that is gone').toEqual([]);
  });

  it('keeps the AI Blog Generator from a Reader, in words, and /api/access says so', async () => {
    const refused = await request(as.reader, 'POST', '/api/ai/generate');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'FORBIDDEN', message: expect.stringContaining('AI Blog Generator is not open to you') });
    const permissions = async (user: TestUser) => (await request(user, 'GET', '/api/access')).json<{ permissions: string[] }>().permissions;
    expect(await permissions(as.reader)).not.toContain('ai:generate');
    for (const role of ['owner', 'administrator', 'editor', 'author', 'contributor'] as const) expect(await permissions(as[role])).toContain('ai:generate');
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
