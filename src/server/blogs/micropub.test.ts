import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../testing/image-fixtures.js';
import { multipart } from '../testing/multipart.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers, type TestUser } from '../testing/test-users.js';

/**
 * Micropub (W3C Recommendation, issue 60) as an app written from the specification uses it, with a
 * token it got through IndieAuth (PKCE): each create format, the queries, update, delete, media,
 * and the specification's errors. Every write is a blog as the site's own forms make it.
 */
const CLIENT_ID = 'http://127.0.0.1:9/app/';
const REDIRECT_URI = 'http://127.0.0.1:9/app/callback';

describe('Micropub', () => {
  const t = useTestApp();
  const users = useSignedUpUsers(t, ['author', 'reader']);
  const tokens: Record<string, string> = {};

  /** IndieAuth's dance for `scope`, as the author: consent, Allow, the code for a token. */
  async function tokenFor(user: TestUser, scope: string): Promise<string> {
    const verifier = randomBytes(32).toString('base64url');
    const query = { response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', scope };
    const decided = await t.app.inject({ method: 'POST', url: '/api/indieauth/authorization', headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, payload: { ...query, allow: true } });
    const code = new URL(decided.json<{ location: string }>().location).searchParams.get('code')!;
    const granted = await t.app.inject({ method: 'POST', url: '/indieauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString() });
    return granted.json<{ access_token: string }>().access_token;
  }

  beforeAll(async () => {
    await t.database.db.updateTable('user').set({ role: 'reader' }).where('id', '=', users.reader.id).execute();
    tokens.all = await tokenFor(users.author, 'create update delete media');
    tokens.create = await tokenFor(users.author, 'create');
    tokens.reader = await tokenFor(users.reader, 'create');
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const postForm = (fields: [string, string][], headers: Record<string, string> = bearer(tokens.all!)) =>
    t.app.inject({ method: 'POST', url: '/micropub', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString(), remoteAddress: randomIp() });
  const postJson = (body: object, token = tokens.all!) => t.app.inject({ method: 'POST', url: '/micropub', headers: bearer(token), payload: body, remoteAddress: randomIp() });
  const query = (q: string, token = tokens.all!) => t.app.inject({ method: 'GET', url: `/micropub?${q}`, headers: bearer(token), remoteAddress: randomIp() });
  const blogAt = async (location: string) => {
    const slug = new URL(location).pathname.split('/').pop()!;
    const address = await t.app.inject({ method: 'GET', url: `/api/blogs/by-slug/${slug}`, headers: { cookie: users.author.cookie } });
    return (await t.app.inject({ method: 'GET', url: `/api/blogs/${address.json().id}`, headers: { cookie: users.author.cookie } })).json();
  };

  it('announces itself: a Link header on the home page, and q=config names the media endpoint', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.headers.link).toContain(`<${TEST_PUBLIC_URL}/micropub>; rel="micropub"`);
    expect((await query('q=config')).json()).toMatchObject({ 'media-endpoint': `${TEST_PUBLIC_URL}/micropub/media`, 'syndicate-to': [] });
    expect((await query('q=syndicate-to')).json()).toEqual({ 'syndicate-to': [] });
  });

  it('creates a blog from a form-encoded h-entry: name, content, categories; 201 at its address', async () => {
    const created = await postForm([['h', 'entry'], ['name', 'From an app'], ['content', 'Written **elsewhere**.'], ['category[]', 'travel'], ['category[]', 'notes']], { access_token: '' } as never);
    expect(created.statusCode).toBe(401);
    const sent = await postForm([['h', 'entry'], ['name', 'From an app'], ['content', 'Written **elsewhere**.'], ['category[]', 'travel'], ['category[]', 'notes'], ['access_token', tokens.all!]], {});
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.headers.location).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/blog/from-an-app`));
    const blog = await blogAt(sent.headers.location as string);
    expect(blog).toMatchObject({ title: 'From an app', status: 'published', tags: ['travel', 'notes'], userId: users.author.id });
    expect(blog.html ?? blog.blogHtml ?? JSON.stringify(blog)).toContain('<strong>elsewhere</strong>');
    // Its visibility event is recorded as the site's own forms record it.
    const events = await t.database.db.selectFrom('queued_jobs').select('payload').where('kind', '=', 'blog-event').execute();
    expect(events.some((job) => JSON.stringify(job.payload).includes(blog.id))).toBe(true);
  });

  it('creates from JSON ({html} content sanitised, a draft by post-status, a future published time scheduled) and multipart with a photo', async () => {
    const json = await postJson({ type: ['h-entry'], properties: { name: ['JSON entry'], content: [{ html: '<p>Safe <b>bold</b></p><script>alert(1)</script>' }], 'post-status': ['draft'] } });
    expect(json.statusCode, json.body).toBe(201);
    const draft = await blogAt(json.headers.location as string);
    expect(draft).toMatchObject({ status: 'draft', blog: 'Safe **bold**', html: expect.stringContaining('<strong>bold</strong>') });
    expect(JSON.stringify(draft)).not.toContain('script');
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await postJson({ type: ['h-entry'], properties: { name: ['Later'], content: ['Tomorrow.'], published: [later] } });
    expect(await blogAt(scheduled.headers.location as string)).toMatchObject({ status: 'draft', publishAt: expect.any(String) });

    const form = await multipart({ h: 'entry', name: 'With a photo', content: 'Look.' }, { name: 'photo', data: await solidPng(400, 300), filename: 'p.png', type: 'image/png' });
    const withPhoto = await t.app.inject({ method: 'POST', url: '/micropub', headers: { ...form.headers, ...bearer(tokens.all!) }, payload: form.payload });
    expect(withPhoto.statusCode, withPhoto.body).toBe(201);
    expect((await blogAt(withPhoto.headers.location as string)).imageUrl).toBeTruthy();
    // A photo by URL is fetched only from a public address.
    const privatePhoto = await postJson({ type: ['h-entry'], properties: { name: ['Private photo'], content: ['x'], photo: ['http://127.0.0.1:9/p.png'] } });
    expect(privatePhoto.statusCode).toBe(400);
    expect(privatePhoto.json().error).toBe('invalid_request');
  });

  it('answers q=source with the properties (all, or those asked), and updates by replace, add and delete', async () => {
    const created = await postJson({ type: ['h-entry'], properties: { name: ['To change'], content: ['First.'], category: ['one', 'two'] } });
    const url = created.headers.location as string;
    const source = (await query(`q=source&url=${encodeURIComponent(url)}`)).json();
    expect(source).toMatchObject({ type: ['h-entry'], properties: { name: ['To change'], content: ['First.'], category: ['one', 'two'], 'post-status': ['published'] } });
    expect((await query(`q=source&url=${encodeURIComponent(url)}&properties[]=name&properties[]=category`)).json()).toEqual({ properties: { name: ['To change'], category: ['one', 'two'] } });

    const updated = await postJson({ action: 'update', url, replace: { content: ['Second.'] }, add: { category: ['three'] }, delete: { category: ['one'] } });
    expect(updated.statusCode, updated.body).toBe(204);
    expect(await blogAt(url)).toMatchObject({ blog: 'Second.', tags: ['two', 'three'], title: 'To change' });
    expect((await postJson({ action: 'update', url, delete: ['category'] })).statusCode).toBe(204);
    expect((await blogAt(url)).tags).toEqual([]);
    expect((await postJson({ action: 'update', url: `${TEST_PUBLIC_URL}/blog/no-such-blog`, replace: { content: ['x'] } })).json().error).toBe('invalid_request');
  });

  it('deletes; undelete is refused (no soft delete); media answers 201 with the image’s Location', async () => {
    const created = await postJson({ type: ['h-entry'], properties: { name: ['To delete'], content: ['Bye.'] } });
    const url = created.headers.location as string;
    expect((await postForm([['action', 'delete'], ['url', url]])).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/api/blogs/by-slug/${url.split('/').pop()}` })).statusCode).toBe(404);
    const undeleted = await postJson({ action: 'undelete', url });
    expect(undeleted.statusCode).toBe(400);
    expect(undeleted.json().error).toBe('invalid_request');

    const form = await multipart({}, { name: 'file', data: await solidPng(200, 100), filename: 'm.png', type: 'image/png' });
    const media = await t.app.inject({ method: 'POST', url: '/micropub/media', headers: { ...form.headers, ...bearer(tokens.all!) }, payload: form.payload });
    expect(media.statusCode, media.body).toBe(201);
    const image = await t.app.inject({ method: 'GET', url: new URL(media.headers.location as string).pathname });
    expect(image.statusCode).toBe(200);
  });

  it('answers the specification’s errors: unauthorized, insufficient_scope, forbidden, invalid_request', async () => {
    const entry = { type: ['h-entry'], properties: { name: ['x'], content: ['y'] } };
    expect((await t.app.inject({ method: 'POST', url: '/micropub', payload: entry })).json()).toMatchObject({ error: 'unauthorized' });
    expect((await postJson(entry, `ia_${'0'.repeat(24)}_${'x'.repeat(43)}`)).statusCode).toBe(401);
    const created = await postJson({ type: ['h-entry'], properties: { name: ['Scoped'], content: ['z'] } }, tokens.create);
    expect(created.statusCode).toBe(201);
    const update = await postJson({ action: 'update', url: created.headers.location, replace: { content: ['no'] } }, tokens.create);
    expect(update.statusCode).toBe(403);
    expect(update.json().error).toBe('insufficient_scope');
    const form = await multipart({}, { name: 'file', data: await solidPng(20, 20), filename: 'm.png', type: 'image/png' });
    expect((await t.app.inject({ method: 'POST', url: '/micropub/media', headers: { ...form.headers, ...bearer(tokens.create!) }, payload: form.payload })).json().error).toBe('insufficient_scope');
    // A token acts within its author's role: a reader writes nothing.
    const reader = await postJson(entry, tokens.reader);
    expect(reader.statusCode).toBe(403);
    expect(reader.json().error).toBe('forbidden');
    expect((await postJson({ action: 'explode' })).json().error).toBe('invalid_request');
    expect((await postJson({ type: ['h-entry'], properties: { name: ['No text'], content: [''] } })).json().error).toBe('invalid_request');
  });
});
