import { describe, expect, it } from 'vitest';
import type { CommentList } from '../../shared/comment-schema.js';
import type { ModerationOverview } from '../../shared/moderation-schema.js';
import { deleteRemoteReply, type RemoteReplyDeps, saveRemoteReply, updateRemoteReply } from '../core/remote-replies.js';
import { postBlog } from '../testing/test-blogs.js';
import { call } from '../testing/auth-test-kit.js';
import { useTestApp } from '../testing/test-app.js';
import { type TestUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');
const alice = { id: 'https://social.example/users/alice', name: 'Alice Remote', url: 'https://social.example/@alice' };
const mallory = { id: 'https://evil.example/users/mallory', name: 'Mallory', url: 'https://evil.example/@mallory' };
let objects = 0;
const newObjectId = () => `https://social.example/users/alice/statuses/${++objects}`;

describe('replies from the fediverse are comments', () => {
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL });
  const { moderator, author, reader } = useSignedUpUsers(t, ['moderator', 'author', 'reader'], { moderator: { email: MODERATOR_EMAIL } });
  const deps = (): RemoteReplyDeps => ({ db: t.database.db, contentChanges: { changed: async () => {} } });

  const inject = (method: 'GET' | 'POST', url: string, user?: TestUser, payload?: unknown) => call(t.app, method, url, payload, { cookie: user?.cookie });
  const comments = async (blogId: string, user?: TestUser) => {
    const response = await inject('GET', `/api/blogs/${blogId}/comments`, user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CommentList>();
  };
  const save = (blogId: string, html: string, extra: { objectId?: string; parentCommentId?: string | null; actor?: typeof alice } = {}) =>
    saveRemoteReply(deps(), {
      objectId: extra.objectId ?? newObjectId(),
      blogId,
      parentCommentId: extra.parentCommentId ?? null,
      actor: extra.actor ?? alice,
      html,
      published: null,
    });

  it('shows a remote reply with its author’s name and profile link, sanitised like our comments, counted once however often it arrives', async () => {
    const blog = await postBlog(t.app, author, { title: 'Federated post', blog: 'Hello fediverse.' });
    // The page is cached before the reply comes: the reply must reach readers anyway.
    expect((await comments(blog.id)).count).toBe(0);
    const objectId = newObjectId();
    const html =
      '<p>Nice post! <a href="https://social.example/tags/blog" class="mention hashtag">#blog</a></p><script>alert(1)</script>' +
      '<h1>Shout</h1><img src="https://social.example/x.png"><p onclick="x()">Second <a href="javascript:alert(1)">bad</a></p>';
    const saved = await save(blog.id, html, { objectId });
    expect(saved?.created).toBe(true);
    expect(await save(blog.id, '<p>again</p>', { objectId })).toEqual({ commentId: saved!.commentId, created: false });

    const list = await comments(blog.id);
    expect(list.count).toBe(1);
    const comment = list.items[0]!;
    expect(comment).toMatchObject({ id: saved!.commentId, userId: null, author: 'Alice Remote', remoteAuthorUrl: alice.url, hidden: false });
    expect(comment.html).toContain('Nice post!');
    expect(comment.html).toContain('rel="nofollow ugc noopener"');
    expect(comment.html).not.toMatch(/<script|<h1|<img|onclick|javascript:|class=/);
    expect(comment.body).toContain('Nice post! #blog');

    const card = await inject('GET', `/api/blogs/${blog.id}`);
    expect(card.json<{ commentCount: number }>().commentCount).toBe(1);
  });

  it('keeps a reply to a comment in that comment’s thread, one level deep, and ignores a parent on another blog', async () => {
    const blog = await postBlog(t.app, author, { title: 'Threads', blog: 'Text.' });
    const other = await postBlog(t.app, author, { title: 'Elsewhere', blog: 'Text.' });
    const local = await inject('POST', `/api/blogs/${blog.id}/comments`, reader, { body: 'A local comment' });
    expect(local.statusCode, local.body).toBe(201);
    const localId = local.json<{ id: string }>().id;
    const reply = await save(blog.id, '<p>replying to you</p>', { parentCommentId: localId });
    const deeper = await save(blog.id, '<p>a reply to the reply</p>', { parentCommentId: reply!.commentId });
    const misplaced = await save(other.id, '<p>parent is not here</p>', { parentCommentId: localId });
    const notAnId = await save(blog.id, '<p>parent is not an id</p>', { parentCommentId: 'https://x.example/1' });

    const threads = (await comments(blog.id)).items;
    const thread = threads.find((item) => item.id === localId)!;
    expect(thread.replies.map((item) => item.id)).toEqual([reply!.commentId, deeper!.commentId]);
    expect(threads.find((item) => item.id === notAnId!.commentId)?.parentId).toBeNull();
    expect((await comments(other.id)).items.map((item) => [item.id, item.parentId])).toEqual([[misplaced!.commentId, null]]);
  });

  it('refuses a reply to a blog that is not public, or that is not a blog', async () => {
    const draft = await t.database.db.insertInto('blogs').values({ user_id: author.id, title: 'Draft', body: 'Secret.', status: 'draft' }).returning('id').executeTakeFirstOrThrow();
    expect(await save(draft.id, '<p>hello</p>')).toBeNull();
    expect(await save('not-a-uuid', '<p>hello</p>')).toBeNull();
    expect(await save('00000000-0000-4000-8000-000000000000', '<p>hello</p>')).toBeNull();
  });

  it('lets only its own author edit or delete it, and takes its replies with it', async () => {
    const blog = await postBlog(t.app, author, { title: 'Edits', blog: 'Text.' });
    const objectId = newObjectId();
    const saved = await save(blog.id, '<p>first words</p>', { objectId });
    const answer = await inject('POST', `/api/blogs/${blog.id}/comments`, reader, { body: 'An answer', parentId: saved!.commentId });
    expect(answer.statusCode, answer.body).toBe(201);

    expect(await updateRemoteReply(deps(), { objectId, actorId: mallory.id, html: '<p>hijacked</p>' })).toBe(false);
    expect(await deleteRemoteReply(deps(), { objectId, actorId: mallory.id })).toBe(false);
    expect(await updateRemoteReply(deps(), { objectId, actorId: alice.id, html: '<p>better words</p><script>x</script>' })).toBe(true);
    const edited = (await comments(blog.id)).items[0]!;
    expect(edited.html).toBe('<p>better words</p>');
    expect(edited.updatedAt).not.toBe(edited.createdAt);

    expect(await deleteRemoteReply(deps(), { objectId, actorId: alice.id })).toBe(true);
    expect(await comments(blog.id)).toMatchObject({ count: 0, items: [] });
    expect(await deleteRemoteReply(deps(), { objectId, actorId: alice.id })).toBe(false);
  });

  it('is reportable and hideable by moderators, who are not offered to suspend an account that is not here', async () => {
    const blog = await postBlog(t.app, author, { title: 'Moderated', blog: 'Text.' });
    const saved = await save(blog.id, '<p>rude words</p>', { actor: mallory });
    const reported = await inject('POST', '/api/reports', reader, { targetType: 'comment', targetId: saved!.commentId, reason: 'harassment' });
    expect(reported.statusCode, reported.body).toBe(201);

    const overview = await inject('GET', '/api/moderation', moderator);
    expect(overview.statusCode, overview.body).toBe(200);
    const open = overview.json<ModerationOverview>().reports.find((item) => item.target.id === saved!.commentId);
    expect(open?.target).toMatchObject({ type: 'comment', authorId: null, authorEmail: `Mallory (${mallory.url})` });

    const hidden = await inject('POST', '/api/moderation/actions', moderator, { action: 'hide', targetType: 'comment', targetId: saved!.commentId, reportId: open!.id });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(await comments(blog.id, reader)).toMatchObject({ count: 0, items: [] });
  });
});
