import { importJwk, signRequest } from '@fedify/fedify';
import { Article, Person } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { CommentList } from '../../shared/comment-schema.js';
import type { RemotePost } from '../../shared/federation-schema.js';
import { multipart } from '../testing/multipart.js';
import { freePort } from '../testing/server-process.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import type { TestUser } from '../testing/test-users.js';

const AP = 'application/activity+json';
const MODERATOR = 'moderator@example.com';

interface Site {
  t: TestApp;
  url: string;
  user: TestUser;
  handle: string;
}

/** A site listening on a loopback port, its PUBLIC_URL that origin, with one author. */
async function startSite(): Promise<Site> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PUBLIC_URL: url, FEDERATION_ALLOW_PRIVATE_ADDRESS: 'true', QUEUE_POLL_MS: '100', QUEUE_RETRY_BASE_MS: '200', MODERATOR_EMAILS: MODERATOR });
  await t.app.listen({ port, host: '127.0.0.1' });
  const [user] = await createSignedInUsers({ db: t.database.db, authSecret: t.config.authSecret }, 1);
  const { handle } = await t.database.db.selectFrom('user').select('handle').where('id', '=', user!.id).executeTakeFirstOrThrow();
  return { t, url, user: user!, handle };
}

/** Polls until `check` returns something truthy (no fixed sleeps); fails with `what` after the timeout. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function api<T>(site: Site, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<{ status: number; body: T }> {
  const response = await site.t.app.inject({
    method,
    url,
    headers: { cookie: site.user.cookie, origin: site.url, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: response.statusCode, body: (response.body ? response.json() : null) as T };
}

async function writeBlog(site: Site, method: 'POST' | 'PATCH', url: string, fields: Record<string, string>): Promise<Blog> {
  const form = await multipart(fields);
  const response = await site.t.app.inject({ method, url, headers: { cookie: site.user.cookie, origin: site.url, ...form.headers }, payload: form.payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<Blog>();
}

const timelineOf = async (site: Site) => (await api<{ items: RemotePost[] }>(site, 'GET', '/api/federation/timeline')).body.items;

describe('two sites federate', () => {
  let a: Site;
  let b: Site;
  beforeAll(async () => {
    [a, b] = await Promise.all([startSite(), startSite()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it('B follows A, A publishes, B sees it, A edits and deletes, B unfollows', { timeout: 240_000 }, async () => {
    // The actor, over the network, as another server reads it.
    const actorResponse = await fetch(`${a.url}/users/${a.handle}`, { headers: { accept: AP } });
    expect(actorResponse.status).toBe(200);
    const person = await Person.fromJsonLd(await actorResponse.json());
    expect(person.preferredUsername?.toString()).toBe(a.handle);
    expect(person.inboxId?.href).toBe(`${a.url}/users/${a.handle}/inbox`);
    expect((await person.getPublicKey())?.id?.href).toContain(`${a.url}/users/${a.handle}`);

    // B's user follows A's author by handle: pending, then accepted when A's Accept arrives.
    const host = new URL(a.url).host;
    const followed = await api<{ actorId: string; state: string }>(b, 'POST', '/api/federation/following', { handle: `@${a.handle}@${host}` });
    expect(followed.status, JSON.stringify(followed.body)).toBe(200);
    expect(followed.body.actorId).toBe(`${a.url}/users/${a.handle}`);
    await waitFor('A lists B as a follower', async () =>
      (await a.t.database.db.selectFrom('federation_followers').selectAll().where('user_id', '=', a.user.id).execute()).find((row) => row.actor_id === `${b.url}/users/${b.handle}`),
    );
    await waitFor('the Accept reached B', async () => {
      const list = await api<{ items: Array<{ actorId: string; state: string }> }>(b, 'GET', '/api/federation/following');
      return list.body.items.find((item) => item.actorId === followed.body.actorId && item.state === 'accepted');
    });
    const followers = await fetch(`${a.url}/users/${a.handle}/followers`, { headers: { accept: AP } });
    expect(((await followers.json()) as { totalItems: number }).totalItems).toBe(1);

    // A draft never leaves; the published blog arrives at B.
    await writeBlog(a, 'POST', '/api/blogs', { title: 'Secret draft', blog: 'Not for anyone yet.', status: 'draft' });
    const blog = await writeBlog(a, 'POST', '/api/blogs', { title: 'Hello, fediverse', blog: 'A *federated* post.', tags: 'greetings' });
    const arrived = await waitFor('the Article reached B’s timeline', async () => (await timelineOf(b)).find((post) => post.objectId === `${a.url}/viewBlog?id=${blog.id}`));
    expect(arrived.title).toBe('Hello, fediverse');
    expect(arrived.html).toContain('<em>federated</em>');
    // Its id stays `/viewBlog?id=`; the page it links to is the readable address (issue 58).
    expect(arrived.url).toBe(`${a.url}/blog/${blog.slug}`);
    await a.t.settled();
    expect((await timelineOf(b)).map((post) => post.title)).not.toContain('Secret draft');

    // The Article, as B's server would fetch it.
    const articleResponse = await fetch(`${a.url}/viewBlog?id=${blog.id}`, { headers: { accept: AP } });
    const article = await Article.fromJsonLd(await articleResponse.json());
    expect(article.name?.toString()).toBe('Hello, fediverse');
    expect(article.attributionId?.href).toBe(`${a.url}/users/${a.handle}`);

    // A edits: B sees the Update.
    await writeBlog(a, 'PATCH', `/api/blogs/${blog.id}`, { title: 'Hello again, fediverse', blog: 'An edited post.' });
    await waitFor('the Update reached B', async () => (await timelineOf(b)).find((post) => post.title === 'Hello again, fediverse' && post.html.includes('edited')));

    // B replies: the reply is a comment on A's blog, in A's public comments API; a Like is kept apart from votes.
    const replied = await api<{ id: string }>(b, 'POST', '/api/federation/replies', { inReplyTo: `${a.url}/viewBlog?id=${blog.id}`, content: 'Nice post!\n\n<script>alert(1)</script>' });
    expect(replied.status, JSON.stringify(replied.body)).toBe(200);
    const comment = await waitFor('the reply is a comment on A’s blog', async () => {
      const list = await api<CommentList>(a, 'GET', `/api/blogs/${blog.id}/comments`);
      return list.body.items.find((item) => item.userId === null);
    });
    expect(comment.html).toContain('Nice post!');
    expect(comment.html).not.toContain('<script');
    expect(comment.remoteAuthorUrl).toBeTruthy();
    expect(comment.author).not.toContain('@example.com');

    // A moderator of A hides another blog: a Delete reaches B.
    const hiddenLater = await writeBlog(a, 'POST', '/api/blogs', { title: 'To be hidden', blog: 'Soon gone.' });
    await waitFor('the second Article reached B', async () => (await timelineOf(b)).find((post) => post.title === 'To be hidden'));
    const [moderator] = await createSignedInUsers({ db: a.t.database.db, authSecret: a.t.config.authSecret }, 1);
    await a.t.database.db.updateTable('user').set({ email: MODERATOR }).where('id', '=', moderator!.id).execute();
    const hide = await api(
      { ...a, user: moderator! },
      'POST',
      '/api/moderation/actions',
      { action: 'hide', targetType: 'blog', targetId: hiddenLater.id, reason: 'Test' },
    );
    expect(hide.status, JSON.stringify(hide.body)).toBeLessThan(300);
    await waitFor('the hidden blog is gone on B', async () => !(await timelineOf(b)).some((post) => post.title === 'To be hidden'));

    // A deletes: gone on B.
    expect((await api(a, 'DELETE', `/api/blogs/${blog.id}`)).status).toBe(204);
    await waitFor('the Delete reached B', async () => !(await timelineOf(b)).some((post) => post.objectId === `${a.url}/viewBlog?id=${blog.id}`));

    // B unfollows: A's followers are empty.
    const unfollowed = await api(b, 'DELETE', '/api/federation/following', { actorId: followed.body.actorId });
    expect(unfollowed.status).toBe(204);
    await waitFor('A’s followers are empty', async () =>
      (await a.t.database.db.selectFrom('federation_followers').selectAll().where('user_id', '=', a.user.id).execute()).length === 0,
    );
    expect((await api<{ items: unknown[] }>(b, 'GET', '/api/federation/following')).body.items).toEqual([]);
  });

  it('a site without FEDERATION_ALLOW_PRIVATE_ADDRESS refuses to fetch from a loopback address', { timeout: 60_000 }, async () => {
    const blog = await writeBlog(a, 'POST', '/api/blogs', { title: 'On loopback', blog: 'Served on 127.0.0.1.' });
    expect((await fetch(`${a.url}/viewBlog?id=${blog.id}`, { headers: { accept: AP } })).status).toBe(200);
    const strict = await createTestApp({ PUBLIC_URL: 'http://localhost:3999' });
    try {
      const [user] = await createSignedInUsers({ db: strict.database.db, authSecret: strict.config.authSecret }, 1);
      const site: Site = { t: strict, url: 'http://localhost:3999', user: user!, handle: '' };
      const reply = await api<{ error: string }>(site, 'POST', '/api/federation/replies', { inReplyTo: `${a.url}/viewBlog?id=${blog.id}`, content: 'Hello?' });
      expect(reply.status).toBe(400);
      const follow = await api<{ error: string }>(site, 'POST', '/api/federation/following', { handle: `@${a.handle}@${new URL(a.url).host}` });
      expect(follow.status).toBe(400);
    } finally {
      await strict.close();
    }
  });

  it('a signed Like of A\'s Article is kept apart from votes; its Undo removes it', { timeout: 60_000 }, async () => {
    const blog = await writeBlog(a, 'POST', '/api/blogs', { title: 'Likeable', blog: 'Like me.' });
    // B's actor (and its keys) exist; sign as B's author would.
    expect((await fetch(`${b.url}/users/${b.handle}`, { headers: { accept: AP } })).status).toBe(200);
    const key = await b.t.database.db.selectFrom('federation_keys').select('private_key').where('user_id', '=', b.user.id).where('algorithm', '=', 'RSASSA-PKCS1-v1_5').executeTakeFirstOrThrow();
    const privateKey = await importJwk(key.private_key, 'private');
    const actor = `${b.url}/users/${b.handle}`;
    const send = async (activity: object) => {
      const request = new Request(`${a.url}/inbox`, { method: 'POST', headers: { 'content-type': AP }, body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', ...activity }) });
      const response = await fetch(await signRequest(request, privateKey, new URL(`${actor}#main-key`)));
      expect(response.status).toBeLessThan(300);
    };
    const like = { id: `${actor}#likes/1`, type: 'Like', actor, object: `${a.url}/viewBlog?id=${blog.id}` };
    await send(like);
    await waitFor('the Like is kept', async () => (await a.t.database.db.selectFrom('federation_likes').selectAll().where('blog_id', '=', blog.id).execute()).length === 1);
    const votes = await a.t.database.db.selectFrom('blogs').select(['upvotes', 'downvotes']).where('id', '=', blog.id).executeTakeFirstOrThrow();
    expect(votes).toEqual({ upvotes: 0, downvotes: 0 });
    await send({ id: `${actor}#likes/1/undo`, type: 'Undo', actor, object: like });
    await waitFor('the Undo removed the Like', async () => (await a.t.database.db.selectFrom('federation_likes').selectAll().where('blog_id', '=', blog.id).execute()).length === 0);
  });
});

