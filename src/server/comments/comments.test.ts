import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blog } from '../../shared/blog-schema.js';
import type { Comment, CommentList } from '../../shared/comment-schema.js';
import { COMMENT_MAX_LENGTH } from '../../shared/constants.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { COMMENT_TEXTS } from './comments.service.js';

/** Calls the API as the browser would: from the site's own origin, with the user's cookie. */
function caller(t: () => TestApp) {
  return (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, user?: TestUser, payload?: unknown) =>
    t().app.inject({
      method,
      url,
      headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) },
      remoteAddress: randomIp(),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

async function insertBlog(t: TestApp, userId: string, title = 'A blog to talk about'): Promise<string> {
  const row = await t.database.db.insertInto('blogs').values({ user_id: userId, title, body: 'Some content.' }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

describe('comments', () => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  const api = caller(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    [owner, reader, stranger] = await Promise.all([signUpUser(t.app), signUpUser(t.app), signUpUser(t.app)]);
  });
  afterAll(() => t.close());

  const comment = async (blogId: string, user: TestUser, body: string, parentId?: string) => {
    const response = await api('POST', `/api/blogs/${blogId}/comments`, user, { body, ...(parentId ? { parentId } : {}) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Comment>();
  };
  const list = async (blogId: string, user?: TestUser) => {
    const response = await api('GET', `/api/blogs/${blogId}/comments`, user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CommentList>();
  };
  const storedCount = async (blogId: string) =>
    (await t.database.db.selectFrom('blogs').select('comment_count').where('id', '=', blogId).executeTakeFirst())?.comment_count;
  /** What the count must be: the visible comments as the table holds them. */
  const countedRows = async (blogId: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('comments')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('blog_id', '=', blogId)
          .where('hidden_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('writing and reading', () => {
    it('refuses signed-out writers with 401 and lets anyone read', async () => {
      const blogId = await insertBlog(t, owner.id);
      const response = await api('POST', `/api/blogs/${blogId}/comments`, undefined, { body: 'Hello' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'UNAUTHORIZED' });
      expect(await list(blogId)).toEqual({ blogId, count: 0, items: [] });
    });

    it('stores a comment with its rendered text and answers 201 with it', async () => {
      const blogId = await insertBlog(t, owner.id);
      const created = await comment(blogId, reader, '  Nice **post**!  ');
      expect(created).toMatchObject({
        blogId,
        parentId: null,
        userId: reader.id,
        author: reader.email,
        body: 'Nice **post**!',
        html: '<p>Nice <strong>post</strong>!</p>\n',
        hidden: false,
      });
      expect(Date.parse(created.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect((await list(blogId)).items).toEqual([{ ...created, replies: [] }]);
    });

    it("refuses an empty comment with the form's message, and one over the length cap", async () => {
      const blogId = await insertBlog(t, owner.id);
      for (const body of ['', '   \n ']) {
        const response = await api('POST', `/api/blogs/${blogId}/comments`, reader, { body });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: 'Add a comment!' });
      }
      const missing = await api('POST', `/api/blogs/${blogId}/comments`, reader, {});
      expect(missing.json()).toEqual({ error: 'BAD_REQUEST', message: 'Add a comment!' });
      const tooLong = await api('POST', `/api/blogs/${blogId}/comments`, reader, { body: 'x'.repeat(COMMENT_MAX_LENGTH + 1) });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().message).toContain(`at most ${COMMENT_MAX_LENGTH} characters`);
      await comment(blogId, reader, 'x'.repeat(COMMENT_MAX_LENGTH));
      expect(await storedCount(blogId)).toBe(1);
    });

    it('renders no headings and no images, even of images stored by this site', async () => {
      const blogId = await insertBlog(t, owner.id);
      const created = await comment(blogId, reader, '# Loud\n\n![a cat](/uploads/blogs/cat.webp)\n\n<script>alert(1)</script>');
      expect(created.html).not.toMatch(/<h\d|<img|<script/);
      expect(created.html).toContain('<p>Loud</p>');
      expect(created.html).toContain('<a href="/uploads/blogs/cat.webp" rel="nofollow ugc noopener">a cat</a>');
    });

    it('answers 404 for comments of an unknown blog or a malformed id, reading or writing', async () => {
      for (const id of ['3f1c1a52-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const read = await api('GET', `/api/blogs/${id}/comments`);
        expect(read.statusCode).toBe(404);
        expect(read.json()).toEqual({ error: 'NOT_FOUND', message: 'This blog does not exist' });
        const write = await api('POST', `/api/blogs/${id}/comments`, reader, { body: 'Hello?' });
        expect(write.statusCode).toBe(404);
      }
    });
  });

  describe('replies', () => {
    it('groups replies under their parent, threads and replies oldest first', async () => {
      const blogId = await insertBlog(t, owner.id);
      const first = await comment(blogId, reader, 'First');
      const second = await comment(blogId, stranger, 'Second');
      const reply1 = await comment(blogId, owner, 'Reply to first', first.id);
      const reply2 = await comment(blogId, stranger, 'Another reply to first', first.id);
      const reply3 = await comment(blogId, reader, 'Reply to second', second.id);
      expect(reply1.parentId).toBe(first.id);

      const threads = await list(blogId);
      expect(threads.count).toBe(5);
      expect(threads.items.map((thread) => [thread.body, thread.replies.map((r) => r.body)])).toEqual([
        ['First', ['Reply to first', 'Another reply to first']],
        ['Second', ['Reply to second']],
      ]);
      expect(threads.items[0]!.replies[1]).toEqual(reply2);
      expect(threads.items[1]!.replies[0]).toEqual(reply3);
    });

    it('refuses a reply to a reply (one level only), and a parent on another blog or none at all', async () => {
      const blogId = await insertBlog(t, owner.id);
      const top = await comment(blogId, reader, 'Top');
      const reply = await comment(blogId, stranger, 'Reply', top.id);

      const deeper = await api('POST', `/api/blogs/${blogId}/comments`, reader, { body: 'Too deep', parentId: reply.id });
      expect(deeper.statusCode).toBe(400);
      expect(deeper.json()).toEqual({ error: 'REPLY_TOO_DEEP', message: COMMENT_TEXTS.replyToReply });

      const otherBlog = await insertBlog(t, owner.id);
      const elsewhere = await api('POST', `/api/blogs/${otherBlog}/comments`, reader, { body: 'Wrong blog', parentId: top.id });
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json()).toEqual({ error: 'PARENT_NOT_FOUND', message: COMMENT_TEXTS.noSuchParent });

      const unknown = await api('POST', `/api/blogs/${blogId}/comments`, reader, { body: 'Nobody', parentId: '3f1c1a52-0000-4000-8000-000000000000' });
      expect(unknown.statusCode).toBe(400);
      const malformed = await api('POST', `/api/blogs/${blogId}/comments`, reader, { body: 'Nobody', parentId: 'nope' });
      expect(malformed.statusCode).toBe(400);

      expect(await storedCount(blogId)).toBe(2);
      expect(await storedCount(otherBlog)).toBe(0);
    });
  });

  describe('ownership', () => {
    it('lets only the author edit, not the blog owner nor a stranger', async () => {
      const blogId = await insertBlog(t, owner.id);
      const mine = await comment(blogId, reader, 'Typo hree');

      for (const user of [stranger, owner]) {
        const refused = await api('PATCH', `/api/comments/${mine.id}`, user, { body: 'Vandalised' });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ error: 'FORBIDDEN', message: COMMENT_TEXTS.notYours });
      }
      expect((await api('PATCH', `/api/comments/${mine.id}`, undefined, { body: 'x' })).statusCode).toBe(401);
      const empty = await api('PATCH', `/api/comments/${mine.id}`, reader, { body: ' ' });
      expect(empty.json()).toEqual({ error: 'BAD_REQUEST', message: 'Add a comment!' });

      const edited = await api('PATCH', `/api/comments/${mine.id}`, reader, { body: 'Typo *here*' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ id: mine.id, body: 'Typo *here*', html: '<p>Typo <em>here</em></p>\n' });
      expect(Date.parse(edited.json<Comment>().updatedAt)).toBeGreaterThanOrEqual(Date.parse(mine.updatedAt));
      expect((await list(blogId)).items[0]!.body).toBe('Typo *here*');
    });

    it('lets the author, or the owner of the blog, delete a comment; a stranger gets 403', async () => {
      const blogId = await insertBlog(t, owner.id);
      const byReader = await comment(blogId, reader, 'By the reader');
      const byStranger = await comment(blogId, stranger, 'By the stranger');

      const refused = await api('DELETE', `/api/comments/${byReader.id}`, stranger);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'FORBIDDEN', message: COMMENT_TEXTS.notYoursToDelete });
      // The reader does not own the blog: someone else's comment on it is not theirs to delete.
      expect((await api('DELETE', `/api/comments/${byStranger.id}`, reader)).statusCode).toBe(403);
      expect(await storedCount(blogId)).toBe(2);

      expect((await api('DELETE', `/api/comments/${byReader.id}`, reader)).statusCode).toBe(204);
      expect((await api('DELETE', `/api/comments/${byStranger.id}`, owner)).statusCode).toBe(204);
      expect(await list(blogId)).toEqual({ blogId, count: 0, items: [] });
      expect(await storedCount(blogId)).toBe(0);

      const again = await api('DELETE', `/api/comments/${byReader.id}`, reader);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ error: 'NOT_FOUND', message: COMMENT_TEXTS.noSuchComment });
      expect((await api('DELETE', '/api/comments/not-a-uuid', reader)).statusCode).toBe(404);
      expect((await api('PATCH', '/api/comments/not-a-uuid', reader, { body: 'x' })).statusCode).toBe(404);
    });

    it('deleting a comment takes its replies with it, and the count follows', async () => {
      const blogId = await insertBlog(t, owner.id);
      const top = await comment(blogId, reader, 'Top');
      await comment(blogId, stranger, 'Reply one', top.id);
      await comment(blogId, owner, 'Reply two', top.id);
      const other = await comment(blogId, stranger, 'Other');
      expect(await storedCount(blogId)).toBe(4);

      expect((await api('DELETE', `/api/comments/${top.id}`, owner)).statusCode).toBe(204);
      expect((await list(blogId)).items.map((thread) => thread.id)).toEqual([other.id]);
      expect(await storedCount(blogId)).toBe(1);
      expect(await countedRows(blogId)).toBe(1);
    });
  });

  describe('counts', () => {
    it("shows the count on the blog's JSON, in the list and on the single blog", async () => {
      const blogId = await insertBlog(t, owner.id, 'Counted blog');
      const first = await comment(blogId, reader, 'One');
      await comment(blogId, stranger, 'Two', first.id);
      const one = await api('GET', `/api/blogs/${blogId}`);
      expect(one.json<Blog>().commentCount).toBe(2);
      const pages = await api('GET', '/api/blogs?page=1');
      expect(pages.json<{ items: Blog[] }>().items.find((blog) => blog.id === blogId)?.commentCount).toBe(2);
      const search = await api('GET', '/api/search?searchTerm=Counted');
      expect(search.json<{ items: Blog[] }>().items.find((blog) => blog.id === blogId)?.commentCount).toBe(2);
    });

    it('stays exact under concurrent comments and deletions', async () => {
      const blogId = await insertBlog(t, owner.id);
      const made = await Promise.all(Array.from({ length: 12 }, (_, i) => comment(blogId, [reader, stranger, owner][i % 3]!, `Comment ${i}`)));
      await Promise.all([
        ...made.slice(0, 6).map((c) => api('DELETE', `/api/comments/${c.id}`, owner)),
        ...Array.from({ length: 4 }, (_, i) => comment(blogId, reader, `Late ${i}`)),
      ]);
      expect(await storedCount(blogId)).toBe(10);
      expect(await countedRows(blogId)).toBe(10);
    });

    it('leaves a hidden comment out for everyone but its author, who sees it marked, and out of the count', async () => {
      const blogId = await insertBlog(t, owner.id);
      const hiddenOne = await comment(blogId, reader, 'Spam');
      const visible = await comment(blogId, stranger, 'Fine');
      await t.database.db.updateTable('comments').set({ hidden_at: new Date() }).where('id', '=', hiddenOne.id).execute();
      expect(await storedCount(blogId)).toBe(1);

      for (const viewer of [undefined, stranger, owner]) {
        const seen = await list(blogId, viewer);
        expect(seen.items.map((thread) => thread.id)).toEqual([visible.id]);
        expect(seen.count).toBe(1);
      }
      const ownView = await list(blogId, reader);
      expect(ownView.items.map((thread) => [thread.id, thread.hidden])).toEqual([
        [hiddenOne.id, true],
        [visible.id, false],
      ]);
      expect(ownView.count).toBe(1);
      // Others cannot answer, edit or delete what they cannot see.
      const reply = await api('POST', `/api/blogs/${blogId}/comments`, stranger, { body: 'Re', parentId: hiddenOne.id });
      expect(reply.statusCode).toBe(400);
      expect((await api('DELETE', `/api/comments/${hiddenOne.id}`, owner)).statusCode).toBe(404);

      await t.database.db.updateTable('comments').set({ hidden_at: null }).where('id', '=', hiddenOne.id).execute();
      expect(await storedCount(blogId)).toBe(2);
    });
  });

  describe('cascades', () => {
    it("deleting a blog removes its comments", async () => {
      const blogId = await insertBlog(t, owner.id);
      const top = await comment(blogId, reader, 'Top');
      await comment(blogId, stranger, 'Reply', top.id);
      expect((await api('DELETE', `/api/blogs/${blogId}`, owner)).statusCode).toBe(204);
      const left = await t.database.db.selectFrom('comments').select('id').where('blog_id', '=', blogId).execute();
      expect(left).toEqual([]);
      expect((await api('GET', `/api/blogs/${blogId}/comments`)).statusCode).toBe(404);
    });

    it("deleting an account removes that user's comments everywhere (with replies to them) and fixes the counts", async () => {
      const doomed = await signUpUser(t.app);
      const theirBlog = await insertBlog(t, doomed.id);
      const otherBlog = await insertBlog(t, owner.id);
      await comment(theirBlog, reader, 'On the doomed blog');
      const doomedTop = await comment(otherBlog, doomed, 'Doomed top-level');
      await comment(otherBlog, reader, 'Reply to the doomed user', doomedTop.id);
      const survivor = await comment(otherBlog, reader, 'Survives');
      const doomedReply = await comment(otherBlog, doomed, 'Doomed reply', survivor.id);
      expect(await storedCount(otherBlog)).toBe(4);

      const deleted = await api('DELETE', '/api/account', doomed, { password: doomed.password });
      expect(deleted.statusCode, deleted.body).toBe(204);

      const byDoomed = await t.database.db.selectFrom('comments').select('id').where('user_id', '=', doomed.id).execute();
      expect(byDoomed).toEqual([]);
      const onTheirBlog = await t.database.db.selectFrom('comments').select('id').where('blog_id', '=', theirBlog).execute();
      expect(onTheirBlog).toEqual([]);
      const threads = await list(otherBlog);
      expect(threads.items.map((thread) => [thread.id, thread.replies.length])).toEqual([[survivor.id, 0]]);
      expect(threads.items[0]!.replies.find((r) => r.id === doomedReply.id)).toBeUndefined();
      expect(await storedCount(otherBlog)).toBe(1);
      expect(await countedRows(otherBlog)).toBe(1);
    });
  });
});

describe('comment rate limits', () => {
  // A tenth of each limit: 3 new comments, 6 edits or deletions per window.
  const t = useTestApp({ RATE_LIMIT_SCALE: '0.1' });
  const api = caller(() => t);

  it('limits new comments per user, whatever address they come from', async () => {
    const [writer, other] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    const blogId = await insertBlog(t, other.id);
    for (let i = 0; i < 3; i++) expect((await api('POST', `/api/blogs/${blogId}/comments`, writer, { body: `c${i}` })).statusCode).toBe(201);
    const refused = await api('POST', `/api/blogs/${blogId}/comments`, writer, { body: 'one too many' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Someone else is not held back by it.
    expect((await api('POST', `/api/blogs/${blogId}/comments`, other, { body: 'mine' })).statusCode).toBe(201);
    expect((await t.database.db.selectFrom('blogs').select('comment_count').where('id', '=', blogId).executeTakeFirstOrThrow()).comment_count).toBe(4);
  });

  it('limits edits and deletions per user', async () => {
    const [writer, other] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    const blogId = await insertBlog(t, other.id);
    const created = await api('POST', `/api/blogs/${blogId}/comments`, writer, { body: 'start' });
    const id = created.json<Comment>().id;
    for (let i = 0; i < 6; i++) expect((await api('PATCH', `/api/comments/${id}`, writer, { body: `edit ${i}` })).statusCode).toBe(200);
    expect((await api('PATCH', `/api/comments/${id}`, writer, { body: 'again' })).statusCode).toBe(429);
    expect((await api('DELETE', `/api/comments/${id}`, writer)).statusCode).toBe(429);
  });
});

describe('comments and the response cache', () => {
  const t = useTestApp({ RESPONSE_CACHE_MB: '8' });
  const api = caller(() => t);
  const anonymous = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: randomIp() });

  it("caches a blog's comments for anonymous readers and drops them, the blog and the lists on every comment write", async () => {
    const [author, reader] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    const blogId = await insertBlog(t, author.id);
    const url = `/api/blogs/${blogId}/comments`;
    expect((await anonymous(url)).headers['x-cache']).toBe('miss');
    expect((await anonymous(url)).headers['x-cache']).toBe('hit');
    expect((await anonymous(`/api/blogs/${blogId}`)).headers['x-cache']).toBe('miss');
    expect((await anonymous('/api/blogs?page=1')).headers['x-cache']).toBe('miss');

    const created = await api('POST', url, reader, { body: 'First!' });
    expect(created.statusCode).toBe(201);
    const afterCreate = await anonymous(url);
    expect(afterCreate.headers['x-cache']).toBe('miss');
    expect(afterCreate.json<CommentList>().count).toBe(1);
    expect((await anonymous(`/api/blogs/${blogId}`)).json<Blog>().commentCount).toBe(1);
    const listed = await anonymous('/api/blogs?page=1');
    expect(listed.headers['x-cache']).toBe('miss');
    expect(listed.json<{ items: Blog[] }>().items.find((blog) => blog.id === blogId)?.commentCount).toBe(1);

    expect((await anonymous(url)).headers['x-cache']).toBe('hit');
    const id = created.json<Comment>().id;
    expect((await api('PATCH', `/api/comments/${id}`, reader, { body: 'Edited' })).statusCode).toBe(200);
    const afterEdit = await anonymous(url);
    expect(afterEdit.headers['x-cache']).toBe('miss');
    expect(afterEdit.json<CommentList>().items[0]!.body).toBe('Edited');

    expect((await anonymous('/api/blogs?page=1')).headers['x-cache']).toBe('hit');
    expect((await api('DELETE', `/api/comments/${id}`, author)).statusCode).toBe(204);
    expect((await anonymous(url)).json<CommentList>().count).toBe(0);
    const listedAfterDelete = await anonymous('/api/blogs?page=1');
    expect(listedAfterDelete.headers['x-cache']).toBe('miss');
    expect(listedAfterDelete.json<{ items: Blog[] }>().items.find((blog) => blog.id === blogId)?.commentCount).toBe(0);
  });
});
