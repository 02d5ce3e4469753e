import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommentList } from '../../shared/comment-schema.js';
import type { Timeline } from '../../shared/federation-schema.js';
import { hostAddress, isPublicAddress } from '../http/public-address.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import type { TestUser } from '../testing/test-users.js';

/**
 * Issue 42's attack run, replayed against a site with `FEDERATION_ALLOW_PRIVATE_ADDRESS` off (the
 * default). A hostile remote server lives at a public address literal; no packet goes there: a
 * stub of the global `fetch` answers for it and refuses every other public address. A request to
 * this machine passes through the stub to the real `fetch`, where the guard must stop it: the
 * loopback listener below must receive nothing, ever.
 */
const AP = 'application/activity+json';
const REMOTE = 'https://93.184.215.14';
const REMOTE_HOST = new URL(REMOTE).host;
const AS = 'https://www.w3.org/ns/activitystreams';
const SECURITY = 'https://w3id.org/security/v1';

type Answer = (url: URL, request: Request) => Response | undefined;

/** The hostile server: its documents, any special answers, and what it was asked. */
const remote = { documents: new Map<string, unknown>(), answers: [] as Answer[], asked: [] as string[] };

async function answerAsRemote(request: Request): Promise<Response> {
  const url = new URL(request.url);
  url.hash = '';
  remote.asked.push(`${request.method} ${url.pathname}${url.search}`);
  for (const answer of remote.answers) {
    const response = answer(url, request);
    if (response) return response;
  }
  const document = remote.documents.get(url.href);
  return document ? Response.json(document, { headers: { 'content-type': AP } }) : new Response('Not found', { status: 404 });
}

/** A listener on this machine (every interface form of it) that counts what reaches it. */
const loopback = { seen: [] as string[], port: 0, server: undefined as http.Server | undefined };

/** Every way of writing this machine's address that the attack run tried. */
const privateForms = () => [
  `http://127.0.0.1:${loopback.port}`,
  `http://localhost:${loopback.port}`,
  `http://2130706433:${loopback.port}`,
  `http://0177.0.0.1:${loopback.port}`,
  `http://127.1:${loopback.port}`,
  `http://[::ffff:127.0.0.1]:${loopback.port}`,
  `http://0.0.0.0:${loopback.port}`,
  `http://[::]:${loopback.port}`,
  `http://[::1]:${loopback.port}`,
];

interface RemoteActor {
  id: string;
  keyId: string;
  privateKey: CryptoKey;
}

/** RSA keys as servers sign with (2048 bits: quicker to make than Fedify's 4096), made once. */
const rsaKeys = () => crypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
let malloryKeys: Promise<CryptoKeyPair> | undefined;
let actorCount = 0;

/** An actor of the hostile server; they all share one key pair, each under its own key id. */
async function remoteActor(fields: { inbox: string; sharedInbox?: string; url?: string; icon?: string }): Promise<RemoteActor> {
  const { privateKey, publicKey } = await (malloryKeys ??= rsaKeys());
  const id = `${REMOTE}/users/mallory${++actorCount}`;
  const spki = Buffer.from(await crypto.subtle.exportKey('spki', publicKey)).toString('base64');
  const pem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
  remote.documents.set(id, {
    '@context': [AS, SECURITY],
    id,
    type: 'Person',
    preferredUsername: `mallory${actorCount}`,
    name: 'Mallory',
    inbox: fields.inbox,
    ...(fields.sharedInbox ? { endpoints: { sharedInbox: fields.sharedInbox } } : {}),
    ...(fields.url ? { url: fields.url } : {}),
    ...(fields.icon ? { icon: { type: 'Image', url: fields.icon } } : {}),
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: pem },
  });
  return { id, keyId: `${id}#main-key`, privateKey };
}

describe('a hostile remote server, with private addresses refused', () => {
  const t = useTestApp({ QUEUE_POLL_MS: '100', QUEUE_RETRY_BASE_MS: '200' });
  const users = { author: {} as TestUser, reader: {} as TestUser };
  let handle = '';

  beforeAll(async () => {
    loopback.server = http.createServer((request, response) => {
      loopback.seen.push(`${request.method} ${request.headers.host} ${request.url}`);
      response.writeHead(202).end();
    });
    // Both stacks where there is IPv6: then [::], [::1] and the IPv4 forms all reach it.
    await new Promise<void>((resolve, reject) => {
      loopback.server!.once('error', reject).listen(0, '::', resolve);
    }).catch(() => new Promise<void>((resolve) => loopback.server!.listen(0, '127.0.0.1', resolve)));
    loopback.port = (loopback.server.address() as AddressInfo).port;

    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const url = new URL(request.url);
      if (url.origin === REMOTE) return answerAsRemote(request);
      const literal = hostAddress(url);
      const local = url.protocol === 'data:' || url.hostname === 'localhost' || (literal !== null && !isPublicAddress(literal));
      if (!local) throw new TypeError(`no request leaves this test: ${url.href}`);
      return realFetch(input, init);
    });

    const [author, reader] = await createSignedInUsers({ db: t.database.db, authSecret: t.config.authSecret }, 2);
    Object.assign(users.author, author);
    Object.assign(users.reader, reader);
    handle = (await t.database.db.selectFrom('user').select('handle').where('id', '=', author!.id).executeTakeFirstOrThrow()).handle;
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await new Promise((resolve) => loopback.server?.close(resolve));
  });

  /** POSTs `activity` (or a body as written) to one of our inboxes, signed with the actor's key the way a server signs a delivery. */
  async function deliver(path: string, activity: object | string, signer?: RemoteActor, tamper?: (body: string) => string) {
    const body = typeof activity === 'string' ? activity : JSON.stringify(activity);
    const request = new Request(`${TEST_PUBLIC_URL}${path}`, { method: 'POST', headers: { 'content-type': AP }, body });
    const signed = signer ? await signRequest(request, signer.privateKey, new URL(signer.keyId)) : request;
    const headers: Record<string, string> = {};
    signed.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return t.app.inject({ method: 'POST', url: path, headers, payload: tamper ? tamper(body) : body });
  }

  const messageJobs = async () => Number((await t.database.db.selectFrom('queued_jobs').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', 'federation-message').executeTakeFirstOrThrow()).n);

  describe('only public addresses on someone else’s word', () => {
    it('refuses a Follow from an actor whose inbox or shared inbox is not public: no Accept, no follower, no request', { timeout: 90_000 }, async () => {
      const before = await messageJobs();
      const forms = privateForms();
      let sent = 0;
      for (const [index, base] of forms.entries()) {
        const own = await remoteActor({ inbox: `${base}/inbox/${index}` });
        const shared = await remoteActor({ inbox: `${REMOTE}/users/shared${index}/inbox`, sharedInbox: `${base}/shared/${index}` });
        for (const actor of [own, shared]) {
          const follow = { '@context': AS, id: `${actor.id}#follows/${index}`, type: 'Follow', actor: actor.id, object: `${TEST_PUBLIC_URL}/users/${handle}` };
          const response = await deliver(`/users/${handle}/inbox`, follow, actor);
          expect(response.statusCode, `${base}: ${response.body}`).toBe(202);
          sent++;
        }
      }
      await t.settled();
      expect(await t.database.db.selectFrom('federation_followers').selectAll().execute()).toEqual([]);
      // One job per Follow received, none for an Accept.
      expect(await messageJobs()).toBe(before + sent);
      expect(loopback.seen).toEqual([]);
    });

    it('never delivers to a private inbox kept before the rule (no retries either), nor follows a public inbox’s redirect to one', { timeout: 90_000 }, async () => {
      const forms = privateForms();
      const rows = forms.map((base, index) => ({
        user_id: users.author.id,
        actor_id: `${REMOTE}/users/kept${index}`,
        inbox_url: `${base}/inbox/kept${index}`,
        shared_inbox_url: null,
        handle: `kept${index}@${REMOTE_HOST}`,
        name: null,
        follow_id: `${REMOTE}/follows/kept${index}`,
      }));
      // A public inbox that answers every delivery with a redirect to this machine.
      const redirecting = `${REMOTE}/users/redirecting/inbox`;
      remote.answers.push((url) => (url.href === redirecting ? new Response(null, { status: 307, headers: { location: `http://127.0.0.1:${loopback.port}/redirected` } }) : undefined));
      rows.push({ ...rows[0]!, actor_id: `${REMOTE}/users/redirecting`, inbox_url: redirecting, handle: `redirecting@${REMOTE_HOST}`, follow_id: `${REMOTE}/follows/redirecting` });
      await t.database.db.insertInto('federation_followers').values(rows).execute();
      try {
        await postBlog(t.app, users.author, { title: 'Published to hostile followers', blog: 'Nothing of this may reach 127.0.0.1.' });
        await t.settled();
        const failed = await t.database.db.selectFrom('queued_jobs').select(['state', 'attempts', 'last_error']).where('kind', '=', 'federation-message').where('last_error', 'like', 'Not delivered to %').execute();
        // Each private inbox: one attempt, failed for good (the moderators' queue shows it), nothing sent.
        expect(failed).toHaveLength(forms.length);
        for (const job of failed) expect(job).toMatchObject({ state: 'failed', attempts: 1 });
        // The public inbox was tried; its redirect to this machine was not followed.
        expect(remote.asked).toContain('POST /users/redirecting/inbox');
        expect(loopback.seen).toEqual([]);
      } finally {
        await t.database.db.deleteFrom('federation_followers').where('user_id', '=', users.author.id).execute();
      }
    });

    it('a signed-in user can neither reply to nor follow an actor whose inbox is not public', async () => {
      const mallory = await remoteActor({ inbox: `http://127.0.0.1:${loopback.port}/inbox/reply` });
      const note = `${REMOTE}/notes/bait`;
      remote.documents.set(note, { '@context': AS, id: note, type: 'Note', attributedTo: mallory.id, content: '<p>Reply to me</p>', to: `${AS}#Public` });
      const username = mallory.id.slice(mallory.id.lastIndexOf('/') + 1);
      remote.answers.push((url) =>
        url.pathname === '/.well-known/webfinger' && url.searchParams.get('resource') === `acct:${username}@${REMOTE_HOST}`
          ? Response.json({ subject: `acct:${username}@${REMOTE_HOST}`, links: [{ rel: 'self', type: AP, href: mallory.id }] }, { headers: { 'content-type': 'application/jrd+json' } })
          : undefined,
      );
      const before = await messageJobs();
      const asUser = { cookie: users.reader.cookie, origin: TEST_PUBLIC_URL, 'content-type': 'application/json' };

      const reply = await t.app.inject({ method: 'POST', url: '/api/federation/replies', headers: asUser, payload: JSON.stringify({ inReplyTo: note, content: 'Hello?' }) });
      expect(reply.statusCode, reply.body).toBe(400);
      expect(reply.json()).toMatchObject({ message: 'That account’s server is not on a public address.' });
      const follow = await t.app.inject({ method: 'POST', url: '/api/federation/following', headers: asUser, payload: JSON.stringify({ handle: `@${username}@${REMOTE_HOST}` }) });
      expect(follow.statusCode, follow.body).toBe(400);
      expect(remote.asked).toContain(`GET /.well-known/webfinger?resource=${encodeURIComponent(`acct:${username}@${REMOTE_HOST}`)}`);

      await t.settled();
      expect(await messageJobs()).toBe(before);
      expect(await t.database.db.selectFrom('federation_following').selectAll().execute()).toEqual([]);
      expect(loopback.seen).toEqual([]);
    });
  });

  describe('the inbox checks before it reads', () => {
    const remoteContexts = () => [AS, `http://127.0.0.1:${loopback.port}/context`, `${REMOTE}/context`];
    const contextFetches = () => remote.asked.filter((asked) => asked.includes('/context'));

    it('answers an unsigned POST naming remote contexts 401, without fetching them', async () => {
      const activity = { '@context': remoteContexts(), id: `${REMOTE}/activities/unsigned`, type: 'Follow', actor: `${REMOTE}/users/nobody`, object: `${TEST_PUBLIC_URL}/users/${handle}` };
      for (const path of ['/inbox', `/users/${handle}/inbox`]) {
        const response = await deliver(path, activity);
        expect(response.statusCode, path).toBe(401);
      }
      expect(contextFetches()).toEqual([]);
      expect(remote.asked).not.toContain('GET /users/nobody');
      expect(loopback.seen).toEqual([]);
    });

    it('answers a badly signed POST 401, without fetching its contexts (a key on a private address is never fetched)', async () => {
      const mallory = await remoteActor({ inbox: `${REMOTE}/users/badsig/inbox` });
      const activity = { '@context': remoteContexts(), id: `${REMOTE}/activities/tampered`, type: 'Follow', actor: mallory.id, object: `${TEST_PUBLIC_URL}/users/${handle}` };
      // Signed, then changed on the way: the Digest no longer matches.
      const tampered = await deliver('/inbox', activity, mallory, (body) => body.replace('tampered', 'tampered!'));
      expect(tampered.statusCode).toBe(401);
      // Signed with a key that is not the one the keyId names.
      const other = await rsaKeys();
      const impostor = { ...mallory, privateKey: other.privateKey };
      expect((await deliver('/inbox', { ...activity, id: `${REMOTE}/activities/impostor` }, impostor)).statusCode).toBe(401);
      // Signed with a key on this machine: never fetched.
      const local = { id: mallory.id, keyId: `http://127.0.0.1:${loopback.port}/key#main`, privateKey: other.privateKey };
      expect((await deliver('/inbox', { ...activity, id: `${REMOTE}/activities/local-key` }, local)).statusCode).toBe(401);
      expect(contextFetches()).toEqual([]);
      expect(loopback.seen).toEqual([]);
    });

    it('answers bodies the parsers choke on with a 4xx, signed or not, never a 5xx', async () => {
      const mallory = await remoteActor({ inbox: `${REMOTE}/users/choke/inbox` });
      // Written as text (JSON.stringify itself would overflow); arrays, so that 50,000 levels fit in the 256 KB.
      const nested = (depth: number) =>
        `{"@context":"${AS}","id":"${REMOTE}/activities/deep${depth}","type":"Create","actor":"${mallory.id}","object":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
      const nestedObjects = `{"@context":"${AS}","type":"Create","actor":"${mallory.id}","object":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`;
      for (const depth of [5_000, 50_000]) {
        const unsigned = await deliver('/inbox', nested(depth));
        expect(unsigned.statusCode, `unsigned, ${depth} deep`).toBe(400);
      }
      expect((await deliver('/inbox', nested(5_000), mallory)).statusCode, 'signed, 5000 deep').toBe(400);
      expect((await deliver('/inbox', nestedObjects, mallory)).statusCode, 'signed, 5000 objects deep').toBe(400);
      // As raw text too: nesting the JSON parser itself has to take.
      const raw = await t.app.inject({ method: 'POST', url: '/inbox', headers: { 'content-type': AP }, payload: '['.repeat(50_000) + ']'.repeat(50_000) });
      expect(raw.statusCode).toBe(400);
      // 200,000 elements do not fit in the 256 KB an inbox takes; 100,000 do, and are refused all the same.
      const wide = (length: number) => ({ '@context': AS, id: `${REMOTE}/activities/wide${length}`, type: 'Create', actor: mallory.id, object: new Array(length).fill(0) });
      expect((await deliver('/inbox', wide(200_000))).statusCode).toBe(413);
      expect((await deliver('/inbox', wide(100_000))).statusCode).toBe(400);
      expect((await deliver('/inbox', wide(100_000), mallory)).statusCode).toBe(400);
      for (const payload of ['not json', '[]', '"Follow"', 'null']) {
        const response = await t.app.inject({ method: 'POST', url: '/inbox', headers: { 'content-type': AP }, payload });
        expect(response.statusCode, payload).toBe(400);
      }
      expect(loopback.seen).toEqual([]);
    });

    it('answers a signed activity whose contexts cannot be loaded with a 4xx, and never loads one from this machine', async () => {
      const mallory = await remoteActor({ inbox: `${REMOTE}/users/contexts/inbox` });
      const activity = (id: string, context: unknown) => ({ '@context': context, id: `${REMOTE}/activities/${id}`, type: 'Like', actor: mallory.id, object: `${TEST_PUBLIC_URL}/viewBlog?id=00000000-0000-4000-8000-000000000000` });
      const cases: Array<[string, unknown]> = [
        ['unknown', [AS, `${REMOTE}/context/unknown`]],
        ['private', [AS, `http://127.0.0.1:${loopback.port}/context`]],
        ['private-by-name', [AS, `http://localhost:${loopback.port}/context`]],
        ['not-a-context', 42],
        ['scheme', [AS, 'file:///etc/passwd']],
      ];
      for (const [id, context] of cases) {
        const response = await deliver('/inbox', activity(id, context), mallory);
        expect(response.statusCode, `${id}: ${response.body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${id}: ${response.body}`).toBeLessThan(500);
      }
      expect(loopback.seen).toEqual([]);
    });
  });

  describe('remote links stay links', () => {
    it('keeps and serves an actor’s and a post’s URL only when it is http(s); links in their text get rel="nofollow ugc noopener"', async () => {
      const mallory = await remoteActor({ inbox: `${REMOTE}/users/links/inbox`, url: 'javascript:alert(document.domain)', icon: 'javascript:alert(1)' });
      const blog = await postBlog(t.app, users.author, { title: 'Reply here', blog: 'Comments welcome.' });
      const content = '<p>Hi <a href="javascript:alert(document.domain)">click</a> <a href="https://example.org/page">a page</a></p>';
      const reply = { '@context': AS, id: `${REMOTE}/notes/js-reply`, type: 'Note', attributedTo: mallory.id, inReplyTo: `${TEST_PUBLIC_URL}/viewBlog?id=${blog.id}`, content, url: 'javascript:alert(2)', to: `${AS}#Public` };
      const created = await deliver('/inbox', { '@context': AS, id: `${reply.id}#create`, type: 'Create', actor: mallory.id, object: reply }, mallory);
      expect(created.statusCode, created.body).toBe(202);

      // A post of an account a local reader follows.
      await t.database.db
        .insertInto('federation_following')
        .values({ user_id: users.reader.id, actor_id: mallory.id, handle: `links@${REMOTE_HOST}`, name: 'Mallory', inbox_url: `${REMOTE}/users/links/inbox`, follow_id: `${REMOTE}/follows/links`, state: 'accepted' })
        .execute();
      const article = { '@context': AS, id: `${REMOTE}/articles/js`, type: 'Article', attributedTo: mallory.id, name: 'A post', content, url: 'javascript:alert(3)', to: `${AS}#Public` };
      const posted = await deliver('/inbox', { '@context': AS, id: `${article.id}#create`, type: 'Create', actor: mallory.id, object: article }, mallory);
      expect(posted.statusCode, posted.body).toBe(202);
      await t.settled();

      const comments = (await t.app.inject({ url: `/api/blogs/${blog.id}/comments` })).json<CommentList>();
      const comment = comments.items.find((item) => item.userId === null);
      expect(comment, JSON.stringify(comments)).toBeDefined();
      expect(comment!.remoteAuthorUrl).toBe(mallory.id);
      expect(comment!.html).not.toContain('javascript:');
      expect(comment!.html).toContain('<a href="https://example.org/page" rel="nofollow ugc noopener">');
      const stored = await t.database.db.selectFrom('comments').select('remote_author_url').where('id', '=', comment!.id).executeTakeFirstOrThrow();
      expect(stored.remote_author_url).toBe(mallory.id);

      const timeline = async () => (await t.app.inject({ url: '/api/federation/timeline', headers: { cookie: users.reader.cookie } })).json<Timeline>().items;
      const post = (await timeline()).find((item) => item.objectId === article.id);
      expect(post).toBeDefined();
      expect(post!.url).toBe(article.id);
      expect(post!.html).not.toContain('javascript:');
      expect(post!.html).toContain('rel="nofollow ugc noopener"');

      // Rows kept before the rule are not served as links either.
      await t.database.db.updateTable('comments').set({ remote_author_url: 'javascript:alert(4)' }).where('id', '=', comment!.id).execute();
      await t.database.db.updateTable('federation_posts').set({ url: 'javascript:alert(5)' }).where('object_id', '=', article.id).execute();
      const served = (await t.app.inject({ url: `/api/blogs/${blog.id}/comments` })).json<CommentList>().items.find((item) => item.id === comment!.id);
      expect(served!.remoteAuthorUrl).toBeNull();
      expect((await timeline()).find((item) => item.objectId === article.id)!.url).toBeNull();
      expect(loopback.seen).toEqual([]);
    });
  });
});
