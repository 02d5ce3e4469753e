import { beforeAll, describe, expect, it } from 'vitest';
import type { PeoplePage } from '../../shared/people-schema.js';
import { blogWrites } from '../testing/blog-writes.js';
import { TEST_OWNER_EMAIL, TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';

/** /admin's People (issue 44): the rules of who changes whom, suspension, deletion, the audit log. */
describe('people on /admin', () => {
  const t = useTestApp();
  const writes = blogWrites(t);
  let owner: TestUser;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    // Signed up while the test kit's owner holds the seat (so all four are authors), then handed over.
    [owner, admin, otherAdmin, author] = await Promise.all([signUpUser(t.app), signUpUser(t.app), signUpUser(t.app), signUpUser(t.app)]);
    await t.database.db.updateTable('user').set({ role: 'author' }).where('email', '=', TEST_OWNER_EMAIL).execute();
    await t.database.db.updateTable('user').set({ role: 'owner' }).where('id', '=', owner!.id).execute();
    await t.database.db.updateTable('user').set({ role: 'administrator' }).where('id', 'in', [admin!.id, otherAdmin!.id]).execute();
  });

  const call = (user: TestUser, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, cookie: user.cookie }, remoteAddress: randomIp(), ...(payload ? { payload } : {}) });
  const roleOf = async (id: string) => (await t.database.db.selectFrom('user').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;
  const audit = (action: string) => t.database.db.selectFrom('audit_log').select(['actor_email', 'subject', 'before', 'after']).where('action', '=', action).execute();

  it('lists every account with its role, blogs and last visit, and finds them by e-mail', async () => {
    await writes.create(author, { title: 'Counted', blog: 'One.' });
    const response = await call(admin, 'GET', `/api/admin/people?search=${encodeURIComponent(author.email.toUpperCase())}`);
    expect(response.statusCode).toBe(200);
    const page = response.json<PeoplePage>();
    expect(page.items).toEqual([expect.objectContaining({ id: author.id, email: author.email, role: 'author', blogCount: 1, suspended: false, joinedAt: expect.any(String) })]);
    expect(page.items[0]!.lastSeenAt === null || typeof page.items[0]!.lastSeenAt === 'string').toBe(true);
    const all = (await call(admin, 'GET', '/api/admin/people')).json<PeoplePage>();
    expect(all.items.map((person) => person.email)).toEqual(expect.arrayContaining([owner.email, admin.email, author.email]));
  });

  it('only the owner changes an administrator; nobody changes the owner here; every change is logged', async () => {
    expect((await call(admin, 'PUT', `/api/admin/people/${otherAdmin.id}/role`, { role: 'editor' })).statusCode).toBe(403);
    expect((await call(admin, 'PUT', `/api/admin/people/${author.id}/role`, { role: 'administrator' })).statusCode).toBe(403);
    expect((await call(admin, 'PUT', `/api/admin/people/${owner.id}/role`, { role: 'reader' })).statusCode).toBe(403);
    expect((await call(owner, 'PUT', `/api/admin/people/${owner.id}/role`, { role: 'author' })).statusCode).toBe(403);
    expect((await call(admin, 'PUT', `/api/admin/people/${author.id}/role`, { role: 'owner' })).statusCode).toBe(400);
    expect(await roleOf(otherAdmin.id)).toBe('administrator');
    expect(await roleOf(owner.id)).toBe('owner');

    expect((await call(admin, 'PUT', `/api/admin/people/${author.id}/role`, { role: 'contributor' })).statusCode).toBe(200);
    expect(await roleOf(author.id)).toBe('contributor');
    expect((await call(owner, 'PUT', `/api/admin/people/${otherAdmin.id}/role`, { role: 'editor' })).statusCode).toBe(200);
    expect(await roleOf(otherAdmin.id)).toBe('editor');
    expect(await audit('role.change')).toEqual(
      expect.arrayContaining([
        { actor_email: admin.email, subject: author.email, before: { role: 'author' }, after: { role: 'contributor' } },
        { actor_email: owner.email, subject: otherAdmin.email, before: { role: 'administrator' }, after: { role: 'editor' } },
      ]),
    );
    // The new role holds on the very next request: a contributor's publish is refused.
    expect((await writes.send('POST', '/api/blogs', author, { title: 'x', blog: 'y' })).statusCode).toBe(403);
    await call(admin, 'PUT', `/api/admin/people/${author.id}/role`, { role: 'author' });
  });

  it('suspends through moderation’s own action (its log and blog events) and unsuspends', async () => {
    const target = await signUpUser(t.app);
    const blog = await writes.create(target, { title: 'Soon hidden', blog: 'Words.' });
    expect((await call(admin, 'PUT', `/api/admin/people/${target.id}/suspension`, { suspended: true, reason: 'spam' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` })).statusCode).toBe(404);
    const logged = await t.database.db.selectFrom('moderation_log').select(['action', 'target_label']).where('target_id', '=', target.id).execute();
    expect(logged).toEqual([{ action: 'suspend', target_label: target.email }]);
    expect(await audit('account.suspend')).toEqual([expect.objectContaining({ actor_email: admin.email, subject: target.email })]);
    expect((await call(admin, 'PUT', `/api/admin/people/${target.id}/suspension`, { suspended: false })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${blog.id}` })).statusCode).toBe(200);
    expect(await audit('account.unsuspend')).toHaveLength(1);
  });

  it('deletes an account with its blogs given to another account, or removed with it', async () => {
    const [leaving, heir, gone] = await Promise.all([signUpUser(t.app), signUpUser(t.app), signUpUser(t.app)]);
    const kept = await writes.create(leaving!, { title: 'Handed on', blog: 'Words.' });
    const lost = await writes.create(gone!, { title: 'Removed', blog: 'Words.' });

    const handed = await call(admin, 'DELETE', `/api/admin/people/${leaving!.id}`, { blogs: 'transfer', transferTo: heir!.email });
    expect(handed.statusCode, handed.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${kept.id}` })).json()).toMatchObject({ userId: heir!.id, author: heir!.email });
    expect(await t.database.db.selectFrom('user').select('id').where('id', '=', leaving!.id).execute()).toEqual([]);

    expect((await call(admin, 'DELETE', `/api/admin/people/${gone!.id}`, { blogs: 'remove' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${lost.id}` })).statusCode).toBe(404);
    expect(await audit('account.delete')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: leaving!.email, after: { blogs: 'transfer', transferTo: heir!.email } }),
        expect.objectContaining({ subject: gone!.email, after: { blogs: 'remove', transferTo: null } }),
      ]),
    );
    // The owner is not deleted from here.
    expect((await call(admin, 'DELETE', `/api/admin/people/${owner.id}`, { blogs: 'remove' })).statusCode).toBe(403);
  });
});
