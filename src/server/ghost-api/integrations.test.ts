import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogPage } from '../../shared/audit-log-schema.js';
import type { CreatedIntegration, IntegrationList } from '../../shared/integration-schema.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers, type TestUser } from '../testing/test-users.js';

/** /admin's integrations (issue 60): Ghost-shaped keys, the Admin API key shown once, none readable in the database, each action audited. */
describe('integrations', () => {
  const t = useTestApp();
  const users = useSignedUpUsers(t, ['admin', 'reader']);
  beforeAll(async () => {
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', '=', users.admin.id).execute();
  });
  const call = (user: TestUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as never, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, remoteAddress: randomIp() });
  const list = async () => (await call(users.admin, 'GET', '/api/admin/integrations')).json<IntegrationList>().items;
  const audit = async () => (await call(users.admin, 'GET', '/api/admin/audit-log?kind=integrations')).json<AuditLogPage>().items;

  it('answers 404 to everyone but the owner and administrators', async () => {
    for (const user of [null, users.reader]) {
      expect((await call(user, 'GET', '/api/admin/integrations')).statusCode).toBe(404);
      expect((await call(user, 'POST', '/api/admin/integrations', { name: 'Ulysses' })).statusCode).toBe(404);
    }
  });

  it('refuses an empty name', async () => {
    const refused = await call(users.admin, 'POST', '/api/admin/integrations', { name: '  ' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'Give the integration a name.' });
  });

  it('adds an integration with Ghost’s keys, shows the Admin API key once, keeps none readable in a dump, regenerates and deletes, each in the audit log', async () => {
    const added = await call(users.admin, 'POST', '/api/admin/integrations', { name: 'Ulysses' });
    expect(added.statusCode, added.body).toBe(201);
    const created = added.json<CreatedIntegration>();
    expect(created.integration).toMatchObject({ name: 'Ulysses', apiUrl: TEST_PUBLIC_URL, lastUsedAt: null });
    expect(created.integration.contentKey).toMatch(/^[0-9a-f]{26}$/);
    expect(created.adminKey).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    const [keyId, secret] = created.adminKey.split(':') as [string, string];
    expect(created.integration.adminKeyId).toBe(keyId);

    const listed = await call(users.admin, 'GET', '/api/admin/integrations');
    expect(listed.headers['cache-control']).toBe('private, no-store');
    expect(listed.json<IntegrationList>().items).toContainEqual(created.integration);
    expect(listed.body).not.toContain(secret);

    const rows = JSON.stringify(await t.database.db.selectFrom('integrations').selectAll().execute());
    expect(rows).not.toContain(secret);
    expect(rows).not.toContain(created.integration.contentKey);

    const regenerated = await call(users.admin, 'POST', `/api/admin/integrations/${created.integration.id}/regenerate`);
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const anew = regenerated.json<CreatedIntegration>();
    expect(anew.integration.contentKey).not.toBe(created.integration.contentKey);
    expect(anew.adminKey).not.toBe(created.adminKey);
    expect(anew.adminKey).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);

    expect((await call(users.admin, 'DELETE', `/api/admin/integrations/${created.integration.id}`)).statusCode).toBe(204);
    expect((await list()).map((item) => item.id)).not.toContain(created.integration.id);
    expect((await call(users.admin, 'DELETE', `/api/admin/integrations/${created.integration.id}`)).statusCode).toBe(404);
    expect((await call(users.admin, 'POST', '/api/admin/integrations/not-an-id/regenerate')).statusCode).toBe(404);

    const entries = (await audit()).filter((entry) => entry.subject === created.integration.id);
    expect(entries.map((entry) => entry.action)).toEqual(['integration.delete', 'integration.regenerate', 'integration.create']);
    expect(entries.every((entry) => entry.kind === 'integrations' && entry.subjectLabel === 'Integration ‘Ulysses’' && entry.actor === users.admin.email)).toBe(true);
    const logged = JSON.stringify(entries);
    for (const kept of [secret, created.integration.contentKey, anew.adminKey.split(':')[1]!]) expect(logged).not.toContain(kept);
  });
});
