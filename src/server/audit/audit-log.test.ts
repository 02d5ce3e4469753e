import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogPage } from '../../shared/audit-log-schema.js';
import { AUDIT_PAGE_SIZE } from '../../shared/audit-log-schema.js';
import { useTestApp, TEST_PUBLIC_URL } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers, type TestUser } from '../testing/test-users.js';
import { recordAudit } from '../core/audit-log.js';

describe('the audit log', () => {
  const t = useTestApp({ SESSION_CACHE_SECONDS: '0' });
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
    expect(newest.items[0]).toEqual({ id: expect.any(String), actor: owner.email, action: 'settings.update', subject: `item-${total - 1}`, before: { n: total - 1 }, after: { n: total }, createdAt: expect.any(String) });
    expect(newest.items.map((item) => item.subject)).toEqual(Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => `item-${total - 1 - i}`));
    const older = (await page(owner, `?before=${newest.nextBefore}`)).json<AuditLogPage>();
    expect(older.items.map((item) => item.subject)).toEqual(['item-4', 'item-3', 'item-2', 'item-1', 'item-0']);
    expect(older.items.at(-1)!.actor).toBeNull();
    expect(older.nextBefore).toBeNull();
    expect((await page(owner, '?before=abc')).statusCode).toBe(400);
  });
});
