import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogPage } from '../../shared/audit-log-schema.js';
import { AUDIT_PAGE_SIZE } from '../../shared/audit-log-schema.js';
import { useTestApp, TEST_PUBLIC_URL } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers, type TestUser } from '../testing/test-users.js';
import { recordAudit } from '../core/audit-log.js';
import { blogWrites } from '../testing/blog-writes.js';

describe('the audit log', () => {
  const t = useTestApp({ SESSION_CACHE_SECONDS: '0', WEBHOOKS_ALLOW_PRIVATE_ADDRESS: 'true' });
  const { owner, editor } = useSignedUpUsers(t, ['owner', 'editor']);
  // The test app's own owner exists already: this one manages the site as an administrator.
  beforeAll(async () => {
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', owner.id).execute();
    await t.database.db.updateTable('user').set({ role: 'editor' }).where('id', '=', editor.id).execute();
  });
  const page = (user: TestUser | null, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/admin/audit-log${query}`, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, remoteAddress: randomIp() });

  it('is the owner’s and administrators’ only: 404 to editors and to the signed out', async () => {
    expect((await page(editor)).statusCode).toBe(404);
    expect((await page(null)).statusCode).toBe(404);
  });

  it('lists who did what to what, when, before and after: newest first, a page at a time', async () => {
    const total = AUDIT_PAGE_SIZE + 5;
    for (let i = 0; i < total; i++) {
      await recordAudit(t.database.db, { actor: i === 0 ? null : { id: owner.id, email: owner.email }, action: 'settings.update', subject: `item-${i}`, before: { n: i }, after: { n: i + 1 } });
    }
    const first = await page(owner);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    const newest = first.json<AuditLogPage>();
    expect(newest.items).toHaveLength(AUDIT_PAGE_SIZE);
    expect(newest.items[0]).toEqual({
      id: expect.any(String),
      actor: owner.email,
      actorName: owner.email.split('@')[0],
      action: 'settings.update',
      kind: 'settings',
      subject: `item-${total - 1}`,
      subjectLabel: `item-${total - 1}`,
      changes: [{ field: 'n', before: String(total - 1), after: String(total) }],
      before: { n: total - 1 },
      after: { n: total },
      createdAt: expect.any(String),
    });
    expect(newest.items.map((item) => item.subject)).toEqual(Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => `item-${total - 1 - i}`));
    const older = (await page(owner, `?before=${newest.nextBefore}`)).json<AuditLogPage>();
    expect(older.items.map((item) => item.subject)).toEqual(['item-4', 'item-3', 'item-2', 'item-1', 'item-0']);
    expect(older.items.at(-1)!.actor).toBeNull();
    expect(older.nextBefore).toBeNull();
    expect((await page(owner, '?before=abc')).statusCode).toBe(400);
  });

  const send = (user: TestUser, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie, ...(payload ? { 'content-type': 'application/json' } : {}) }, remoteAddress: randomIp() });
  const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-/;

  it('says who and what in words (issue 59): people by name and e-mail, blogs by title, webhooks by event and host, the changed fields', async () => {
    await t.database.db.updateTable('user').set({ display_name: 'Maya Harbour' }).where('id', '=', editor.id).execute();
    expect((await send(owner, 'PUT', `/api/admin/people/${editor.id}/role`, { role: 'author' })).statusCode).toBe(200);
    const created = await send(owner, 'POST', '/api/admin/webhooks', { event: 'post.published', targetUrl: 'http://127.0.0.1:9/hooks/published' });
    expect(created.statusCode, created.body).toBe(201);
    const removed = await send(owner, 'POST', '/api/admin/webhooks', { event: 'comment.added', targetUrl: 'http://localhost:9/hooks/comments' });
    const removedId = removed.json<{ webhook: { id: string } }>().webhook.id;
    expect((await send(owner, 'DELETE', `/api/admin/webhooks/${removedId}`)).statusCode).toBe(204);
    const blog = await blogWrites(t).create(owner, { title: 'Tide tables' });
    await recordAudit(t.database.db, { actor: { id: owner.id, email: owner.email }, action: 'blog.unpublish', subject: blog.id, before: { status: 'published' }, after: { status: 'draft' } });

    const items = (await page(owner)).json<AuditLogPage>().items;
    const [unpublished, deleted, createdThenDeleted, webhook, role] = items;
    expect(unpublished).toMatchObject({ action: 'blog.unpublish', kind: 'blogs', subjectLabel: 'Tide tables', changes: [{ field: 'status', before: 'published', after: 'draft' }] });
    expect(deleted).toMatchObject({ action: 'webhook.delete', kind: 'webhooks', subjectLabel: 'comment.added → localhost:9' });
    expect(deleted!.changes.map((change) => change.field).sort()).toEqual(['event', 'secret', 'targetUrl']);
    expect(deleted!.changes.find((change) => change.field === 'event')).toEqual({ field: 'event', before: 'comment.added', after: null });
    expect(webhook).toMatchObject({ action: 'webhook.create', subjectLabel: 'post.published → 127.0.0.1:9' });
    expect(role).toMatchObject({ action: 'role.change', kind: 'people', actor: owner.email, subjectLabel: `Maya Harbour <${editor.email}>`, changes: [{ field: 'role', before: 'editor', after: 'author' }] });
    expect(createdThenDeleted).toMatchObject({ action: 'webhook.create', subjectLabel: 'comment.added → localhost:9' });
    for (const item of [unpublished, deleted, createdThenDeleted, webhook, role]) expect(`${item!.subjectLabel} ${item!.actorName}`).not.toMatch(UUID);
  });

  it('filters by kind (the action’s prefix), validated: 400 for a kind it does not know', async () => {
    const people = (await page(owner, '?kind=people')).json<AuditLogPage>();
    expect(people.items.length).toBeGreaterThan(0);
    expect(new Set(people.items.map((item) => item.kind))).toEqual(new Set(['people']));
    const webhooks = (await page(owner, '?kind=webhooks')).json<AuditLogPage>();
    expect(webhooks.items.map((item) => item.action)).toEqual(['webhook.delete', 'webhook.create', 'webhook.create']);
    const settings = (await page(owner, '?kind=settings')).json<AuditLogPage>();
    expect(settings.items).toHaveLength(AUDIT_PAGE_SIZE);
    const older = (await page(owner, `?kind=settings&before=${settings.nextBefore}`)).json<AuditLogPage>();
    expect(older.items.every((item) => item.action === 'settings.update')).toBe(true);
    expect(older.items.at(-1)!.subject).toBe('item-0');
    const wrong = await page(owner, '?kind=everything');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toContain('Not a kind of the audit log.');
  });
});
