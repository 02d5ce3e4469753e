import { Article, Person } from '@fedify/vocab';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BLOG_FEDERATE_JOB, type BlogFederatePayload } from '../core/blog-federation.js';
import type { JobKind, JobQueue } from '../queue/job-queue.js';
import type { SiteFederation } from './federation.js';
import { registerFederationJobs } from './federation-loader.js';
import { performAction } from '../moderation/moderation.service.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import type { TestUser } from '../testing/test-users.js';

const AP = 'application/activity+json';

async function handleOf(t: { database: { db: Kysely<Database> } }, userId: string): Promise<string> {
  const row = await t.database.db.selectFrom('user').select('handle').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.handle;
}

describe('federation: discovery', () => {
  const t = useTestApp();
  // Written straight into the tables (Better Auth's sign-up is not needed here); the trigger gives the handle.
  const users = { author: {} as TestUser, moderator: {} as TestUser };
  beforeAll(async () => {
    const [author, moderator] = await createSignedInUsers({ db: t.database.db, authSecret: t.config.authSecret }, 2);
    Object.assign(users.author, author);
    Object.assign(users.moderator, moderator);
  });

  it('answers WebFinger for acct:handle@host with the actor, and 404 for an unknown handle', async () => {
    const handle = await handleOf(t, users.author.id);
    const host = new URL(TEST_PUBLIC_URL).host;
    const response = await t.app.inject({ url: `/.well-known/webfinger?resource=${encodeURIComponent(`acct:${handle}@${host}`)}` });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ subject: string; links: Array<{ rel: string; type?: string; href?: string }> }>();
    expect(body.subject).toBe(`acct:${handle}@${host}`);
    expect(body.links).toContainEqual(expect.objectContaining({ rel: 'self', type: AP, href: `${TEST_PUBLIC_URL}/users/${handle}` }));
    const unknown = await t.app.inject({ url: `/.well-known/webfinger?resource=${encodeURIComponent(`acct:nobody_here@${host}`)}` });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers NodeInfo 2.1, linked from /.well-known/nodeinfo', async () => {
    const links = await t.app.inject({ url: '/.well-known/nodeinfo' });
    expect(links.statusCode).toBe(200);
    expect(links.json<{ links: Array<{ href: string }> }>().links[0]!.href).toBe(`${TEST_PUBLIC_URL}/nodeinfo/2.1`);
    const info = await t.app.inject({ url: '/nodeinfo/2.1' });
    expect(info.statusCode).toBe(200);
    const body = info.json<{ software: { name: string }; protocols: string[]; usage: { users: { total: number }; localPosts: number } }>();
    expect(body.software.name).toBe('blogging-site');
    expect(body.protocols).toEqual(['activitypub']);
    expect(body.usage.users.total).toBeGreaterThanOrEqual(1);
  });

  it('answers the Person for ActivityPub, with keys and no e-mail; a browser is sent to the author page', async () => {
    const handle = await handleOf(t, users.author.id);
    const response = await t.app.inject({ url: `/users/${handle}`, headers: { accept: AP } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(users.author.email);
    expect(response.body).not.toContain('@example.com');
    const person = await Person.fromJsonLd(response.json());
    expect(person.id?.href).toBe(`${TEST_PUBLIC_URL}/users/${handle}`);
    expect(person.preferredUsername?.toString()).toBe(handle);
    expect(person.inboxId?.href).toBe(`${TEST_PUBLIC_URL}/users/${handle}/inbox`);
    expect(person.endpoints?.sharedInbox?.href).toBe(`${TEST_PUBLIC_URL}/inbox`);
    expect(person.followersId?.href).toBe(`${TEST_PUBLIC_URL}/users/${handle}/followers`);
    expect(person.url?.toString()).toBe(`${TEST_PUBLIC_URL}/author?id=${users.author.id}`);
    const key = await person.getPublicKey();
    expect(key?.ownerId?.href).toBe(person.id?.href);
    const methods = [];
    for await (const method of person.getAssertionMethods()) methods.push(method);
    expect(methods.length).toBeGreaterThan(0);
    // The keys are made once and kept.
    const again = await t.app.inject({ url: `/users/${handle}`, headers: { accept: AP } });
    expect((await (await Person.fromJsonLd(again.json())).getPublicKey())?.publicKey).toEqual(key?.publicKey);

    const browser = await t.app.inject({ url: `/users/${handle}`, headers: { accept: 'text/html' } });
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toBe(`${TEST_PUBLIC_URL}/author?id=${users.author.id}`);
  });

  it('answers the Article on the blog page URL for ActivityPub, not for a browser; drafts are not found', async () => {
    const handle = await handleOf(t, users.author.id);
    const blog = await postBlog(t.app, users.author, { title: 'Federated title', blog: 'Some **words** here, [about us](/about).', tags: 'fedi' });
    const response = await t.app.inject({ url: `/viewBlog?id=${blog.id}`, headers: { accept: AP } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/activity+json');
    expect(response.body).not.toContain(users.author.email);
    const article = await Article.fromJsonLd(response.json());
    expect(article.id?.href).toBe(`${TEST_PUBLIC_URL}/viewBlog?id=${blog.id}`);
    expect(article.name?.toString()).toBe('Federated title');
    expect(article.content?.toString()).toContain('<strong>words</strong>');
    // What leaves the site has absolute links (another server has no page to resolve `/about` against).
    expect(article.content?.toString()).toContain(`href="${TEST_PUBLIC_URL}/about"`);
    expect(response.body).toContain('"#fedi"');
    expect(article.attributionId?.href).toBe(`${TEST_PUBLIC_URL}/users/${handle}`);
    // Its id never changes; its url is the readable address (issue 58).
    expect(article.url?.toString()).toBe(`${TEST_PUBLIC_URL}/blog/${blog.slug}`);

    const ld = await t.app.inject({ url: `/viewBlog?id=${blog.id}`, headers: { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' } });
    expect(ld.statusCode).toBe(200);
    // A browser's request is not the Article (the pages are not built in API tests: their JSON 404).
    const browser = await t.app.inject({ url: `/viewBlog?id=${blog.id}`, headers: { accept: 'text/html' } });
    expect(browser.headers['content-type'] ?? '').not.toContain('activity+json');

    const draft = await postBlog(t.app, users.author, { title: 'A draft', blog: 'Not yet.', status: 'draft' } as never);
    expect(draft.status).toBe('draft');
    const hidden = await t.app.inject({ url: `/viewBlog?id=${draft.id}`, headers: { accept: AP } });
    expect(hidden.statusCode).toBe(404);
  });

  it('refuses an unsigned inbox POST with 401, on an actor inbox and on the shared inbox', async () => {
    const handle = await handleOf(t, users.author.id);
    const activity = JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: 'https://remote.example/follows/1',
      type: 'Follow',
      actor: 'https://remote.example/users/mallory',
      object: `${TEST_PUBLIC_URL}/users/${handle}`,
    });
    for (const url of [`/users/${handle}/inbox`, '/inbox']) {
      const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': AP }, payload: activity });
      expect(response.statusCode, url).toBe(401);
    }
    const followers = await t.database.db.selectFrom('federation_followers').selectAll().execute();
    expect(followers).toEqual([]);
  });

  it('refuses a badly signed inbox POST with 401', async () => {
    const handle = await handleOf(t, users.author.id);
    const response = await t.app.inject({
      method: 'POST',
      url: `/users/${handle}/inbox`,
      headers: {
        'content-type': AP,
        date: new Date().toUTCString(),
        signature: 'keyId="https://remote.invalid/users/mallory#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="bm90IGEgc2lnbmF0dXJl"',
      },
      payload: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: 'https://remote.invalid/1', type: 'Follow', actor: 'https://remote.invalid/users/mallory', object: `${TEST_PUBLIC_URL}/users/${handle}` }),
    });
    expect(response.statusCode).toBe(401);
  });

  it('delivers a published blog to followers, never a draft; a suspension sends a Delete and its end a Create again', async () => {
    await t.database.db
      .insertInto('federation_followers')
      .values({ user_id: users.author.id, actor_id: 'https://remote.invalid/users/reader', inbox_url: 'https://remote.invalid/users/reader/inbox', shared_inbox_url: null, handle: 'reader@remote.invalid', name: 'Reader', follow_id: 'https://remote.invalid/follows/1' })
      .execute();
    // The deliveries to an inbox of activities about `blogIds`, each blog's types in order (Fedify may
    // first queue a fan-out message, which queues the deliveries; the remote inbox never answers, so
    // a delivery stays with its payload). Counted per blog: another test's blog cannot land in them.
    const deliveries = async (blogIds: string[]) => {
      const messages = (await t.database.db.selectFrom('queued_jobs').select('payload').where('kind', '=', 'federation-message').orderBy('id').execute())
        .map((row) => (row.payload as { message?: { type?: string; activityType?: string; activity?: unknown } }).message)
        .filter((message) => message?.type === 'outbox');
      return Object.fromEntries(
        blogIds.map((id) => [id, messages.filter((message) => JSON.stringify(message!.activity).includes(id)).map((message) => message!.activityType!.split('#').pop())]),
      );
    };
    const moderator = { id: users.moderator.id, email: users.moderator.email } as never;
    const moderate = (action: 'suspend' | 'unsuspend') => performAction({ db: t.database.db, config: t.config }, moderator, { action, userId: users.author.id, reason: undefined });
    try {
      await t.settled();
      const blog = await postBlog(t.app, users.author, { title: 'For my followers', blog: 'Hello.' });
      await t.settled();
      expect(await deliveries([blog.id])).toEqual({ [blog.id]: ['Create'] });

      // A draft sends nothing.
      const draft = await postBlog(t.app, users.author, { title: 'Still a draft', blog: 'Later.', status: 'draft' } as never);
      await t.settled();
      expect(await deliveries([draft.id])).toEqual({ [draft.id]: [] });

      // Suspended: each public blog of theirs leaves the follower's server (a Delete, signed by the
      // author); the draft sends nothing. Restored: each comes back (a Create).
      const publicIds = (await t.database.db.selectFrom('blogs').select('id').where('user_id', '=', users.author.id).where('status', '=', 'published').execute()).map((row) => row.id);
      expect(publicIds).toContain(blog.id);
      const before = await deliveries(publicIds);
      await moderate('suspend');
      await t.settled();
      await moderate('unsuspend');
      await t.settled();
      const after = await deliveries([...publicIds, draft.id]);
      for (const id of publicIds) expect(after[id], id).toEqual([...before[id]!, 'Delete', 'Create']);
      expect(after[draft.id]).toEqual([]);
    } finally {
      await t.database.db.updateTable('user').set({ suspended_at: null }).where('id', '=', users.author.id).execute();
      await t.database.db.updateTable('blogs').set({ author_suspended_at: null }).where('user_id', '=', users.author.id).execute();
      await t.database.db.deleteFrom('federation_followers').where('user_id', '=', users.author.id).execute();
    }
  });

  it('a blog\'s hook job loads Fedify only for an author somebody follows', async () => {
    const kinds = new Map<string, JobKind<unknown>>();
    const queue = { register: (kind: JobKind<unknown>) => kinds.set(kind.kind, kind) } as unknown as JobQueue;
    const federateBlog = vi.fn(async () => {});
    const load = vi.fn(async () => ({ federateBlog }) as unknown as SiteFederation);
    registerFederationJobs(queue, { subscribe: () => {}, consumers: () => [] }, t.database.db, load);
    const run = (payload: BlogFederatePayload) => kinds.get(BLOG_FEDERATE_JOB)!.run({ payload } as never, {} as never);
    const payload: BlogFederatePayload = { blogId: '00000000-0000-4000-8000-000000000001', action: 'create', userId: users.author.id, handle: 'someone' };
    await run(payload);
    expect(load).not.toHaveBeenCalled();

    await t.database.db
      .insertInto('federation_followers')
      .values({ user_id: users.author.id, actor_id: 'https://remote.invalid/users/reader', inbox_url: 'https://remote.invalid/users/reader/inbox', shared_inbox_url: null, handle: 'reader@remote.invalid', name: 'Reader', follow_id: 'https://remote.invalid/follows/1' })
      .execute();
    try {
      await run(payload);
      expect(load).toHaveBeenCalledTimes(1);
      expect(federateBlog).toHaveBeenCalledWith(payload);
    } finally {
      await t.database.db.deleteFrom('federation_followers').where('user_id', '=', users.author.id).execute();
    }
  });

  it('refuses an inbox body over the size cap', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/inbox', headers: { 'content-type': AP }, payload: JSON.stringify({ big: 'x'.repeat(300 * 1024) }) });
    expect(response.statusCode).toBe(413);
  });

  it('is gone (410) for a suspended author', async () => {
    const handle = await handleOf(t, users.author.id);
    await t.database.db.updateTable('user').set({ suspended_at: new Date() }).where('id', '=', users.author.id).execute();
    try {
      const response = await t.app.inject({ url: `/users/${handle}`, headers: { accept: AP } });
      expect(response.statusCode).toBe(410);
      expect(response.body).not.toContain(users.author.email);
    } finally {
      await t.database.db.updateTable('user').set({ suspended_at: null }).where('id', '=', users.author.id).execute();
    }
  });
});

describe('federation off', () => {
  it('FEDERATION=false: no WebFinger, no actor, no inbox, and writes queue no federation job', async () => {
    const t = await createTestApp({ FEDERATION: 'false' });
    try {
      const [user] = await createSignedInUsers({ db: t.database.db, authSecret: t.config.authSecret }, 1);
      const handle = await handleOf(t, user!.id);
      expect((await t.app.inject({ url: `/.well-known/webfinger?resource=acct:${handle}@localhost:3999` })).statusCode).toBe(404);
      expect((await t.app.inject({ url: `/users/${handle}`, headers: { accept: AP } })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: '/inbox', headers: { 'content-type': AP }, payload: '{}' })).statusCode).toBe(404);
      await postBlog(t.app, user!, { title: 'Local only', blog: 'Stays here.' });
      const jobs = await t.database.db.selectFrom('queued_jobs').select('kind').where('kind', 'in', ['blog-federate', 'federation-message']).execute();
      expect(jobs).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
