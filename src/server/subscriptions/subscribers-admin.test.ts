import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SubscribersImportResult, SubscribersPage } from '../../shared/subscribers-admin-schema.js';
import { parseCsv } from './csv.js';
import { multipart } from '../testing/multipart.js';
import { giveRole } from '../testing/site-managers.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, useSignedUpUsers, type TestUser } from '../testing/test-users.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

describe("/admin's Subscribers (issue 59): the API", () => {
  const t = useTestApp();
  const { admin, author, reader } = useSignedUpUsers(t, ['admin', 'author', 'reader']);

  const send = (user: TestUser | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, options: { payload?: object | Buffer; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method, url, remoteAddress: randomIp(), headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}), ...options.headers }, ...(options.payload ? { payload: options.payload } : {}) });
  const asAdmin = async () => {
    await giveRole(t, admin, 'administrator');
    return admin;
  };
  const importCsv = async (user: TestUser, file: Buffer, fileName: string, optedIn: boolean) => {
    const form = await multipart(optedIn ? { optedIn: 'true' } : {}, { name: 'file', data: file, filename: fileName, type: 'text/csv' });
    return send(user, 'POST', '/api/admin/subscribers/import', { payload: form.payload, headers: form.headers });
  };
  const list = async (query = '') => {
    const response = await send(admin, 'GET', `/api/admin/subscribers${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SubscribersPage>();
  };
  const siteRow = async (email: string) =>
    t.database.db.selectFrom('subscriptions').select(['id', 'confirmed_at']).where('email', '=', email).where('author_id', 'is', null).executeTakeFirst();
  const confirmationsTo = async (email: string) => {
    await t.settled();
    return (await t.outbox()).filter((mail) => mail.to === email && /Confirm your subscription/.test(mail.subject));
  };
  const auditActions = async () => (await t.database.db.selectFrom('audit_log').select(['action', 'subject']).where('action', 'like', 'subscriber.%').orderBy('id').execute());

  it('answers 404 to everyone who may not manage the site, and changes nothing', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const user of [undefined, author, reader]) {
      expect((await send(user, 'GET', '/api/admin/subscribers')).statusCode).toBe(404);
      expect((await send(user, 'GET', '/api/admin/subscribers.csv')).statusCode).toBe(404);
      expect((await send(user, 'DELETE', `/api/admin/subscribers/${missing}`)).statusCode).toBe(404);
      const response = user ? await importCsv(user, fixture('ghost-members.csv'), 'ghost.csv', true) : await send(user, 'POST', '/api/admin/subscribers/import');
      expect(response.statusCode).toBe(404);
    }
    expect(await t.database.db.selectFrom('subscriptions').select('id').execute()).toEqual([]);
  });

  it('imports Ghost’s, Substack’s and Mailchimp’s exports by their address column, reports what it skipped, and adds nothing the second time', async () => {
    const user = await asAdmin();
    const ghost = await importCsv(user, fixture('ghost-members.csv'), 'ghost-members.csv', false);
    expect(ghost.statusCode, ghost.body).toBe(200);
    expect(ghost.json<SubscribersImportResult>()).toEqual({
      column: 'email',
      imported: 2,
      confirmed: false,
      skipped: [
        { line: 4, email: 'not-an-address', reason: 'invalid address' },
        { line: 5, email: 'bo@harbour.example', reason: 'duplicate' },
      ],
      skippedCount: 2,
    });
    // Not opted in: waiting, and each asked to confirm with the mail a new subscriber gets.
    expect((await siteRow('ann@harbour.example'))?.confirmed_at).toBeNull();
    expect((await siteRow('bo@harbour.example'))?.confirmed_at).toBeNull();
    expect(await confirmationsTo('ann@harbour.example')).toHaveLength(1);
    expect(await confirmationsTo('bo@harbour.example')).toHaveLength(1);

    const substack = (await importCsv(user, fixture('substack-subscribers.csv'), 'substack.csv', true)).json<SubscribersImportResult>();
    expect(substack).toEqual({
      column: 'Email',
      imported: 1,
      confirmed: true,
      skipped: [
        { line: 3, email: 'ann@harbour.example', reason: 'already subscribed' },
        { line: 4, email: '=cmd|calc!A1', reason: 'invalid address' },
      ],
      skippedCount: 2,
    });
    // Opted in: confirmed at once, no mail; one already there stays as it was.
    expect((await siteRow('cy@harbour.example'))?.confirmed_at).toBeInstanceOf(Date);
    expect(await confirmationsTo('cy@harbour.example')).toHaveLength(0);
    expect((await siteRow('ann@harbour.example'))?.confirmed_at).toBeNull();

    const mailchimp = (await importCsv(user, fixture('mailchimp-subscribed.csv'), 'subscribed_members_export.csv', true)).json<SubscribersImportResult>();
    expect(mailchimp).toMatchObject({ column: 'Email Address', imported: 2, confirmed: true, skippedCount: 0 });
    expect((await siteRow('dee@harbour.example'))?.confirmed_at).toBeInstanceOf(Date);

    // The second run of each: nothing new, every address reported as there already, no new mail.
    const before = await t.database.db.selectFrom('subscriptions').select('id').execute();
    for (const [name, column] of [['ghost-members.csv', 'email'], ['substack-subscribers.csv', 'Email'], ['mailchimp-subscribed.csv', 'Email Address']] as const) {
      const again = (await importCsv(user, fixture(name), name, false)).json<SubscribersImportResult>();
      expect(again.column).toBe(column);
      expect(again.imported, name).toBe(0);
      expect(again.skipped.filter((row) => row.reason === 'already subscribed').length, name).toBeGreaterThan(0);
    }
    expect(await t.database.db.selectFrom('subscriptions').select('id').execute()).toHaveLength(before.length);
    expect(before).toHaveLength(5);
    expect(await confirmationsTo('ann@harbour.example')).toHaveLength(1);
    expect(await confirmationsTo('dee@harbour.example')).toHaveLength(0);
    expect((await auditActions()).filter((row) => row.action === 'subscriber.import').map((row) => row.subject)).toEqual([
      'ghost-members.csv',
      'substack.csv',
      'subscribed_members_export.csv',
      'ghost-members.csv',
      'substack-subscribers.csv',
      'mailchimp-subscribed.csv',
    ]);
  });

  it('refuses a file without an address column, a form without a file, and one too large', async () => {
    const user = await asAdmin();
    const noColumn = await importCsv(user, Buffer.from('name,phone\nAnn,123\n'), 'people.csv', false);
    expect(noColumn.statusCode).toBe(400);
    expect(noColumn.json<{ message: string }>().message).toMatch(/no column of e-mail addresses/);
    const form = await multipart({ optedIn: 'true' });
    expect((await send(user, 'POST', '/api/admin/subscribers/import', { payload: form.payload, headers: form.headers })).statusCode).toBe(400);
    const huge = await importCsv(user, Buffer.alloc(5 * 1024 * 1024 + 10, 'a'), 'huge.csv', false);
    expect(huge.statusCode).toBe(413);
    expect((await send(user, 'POST', '/api/admin/subscribers/import', { payload: { file: 'x' } })).statusCode).toBe(415);
  });

  it('lists every subscription with its target, date and state, searches by address, pages, counts per author with fediverse followers, removes and exports', async () => {
    const user = await asAdmin();
    // A reader subscribes to the author (waiting for its confirmation); the author has two fediverse followers.
    expect((await send(undefined, 'POST', '/api/subscriptions', { payload: { email: 'fan@harbour.example', authorId: author.id } })).statusCode).toBe(200);
    await t.database.db.updateTable('user').set({ display_name: '=Skipper' }).where('id', '=', author.id).execute();
    await t.database.db
      .insertInto('federation_followers')
      .values([1, 2].map((n) => ({ user_id: author.id, actor_id: `https://remote.example/users/f${n}`, inbox_url: `https://remote.example/users/f${n}/inbox` })))
      .execute();
    await t.database.db.insertInto('subscriptions').values({ email: '+plus@harbour.example', author_id: null, confirmed_at: new Date() }).execute();

    const all = await list();
    const fan = all.items.find((item) => item.email === 'fan@harbour.example')!;
    expect(fan).toMatchObject({ target: { kind: 'author', authorId: author.id, authorName: '=Skipper' }, confirmed: false });
    expect(new Date(fan.since).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(all.items.find((item) => item.email === 'cy@harbour.example')).toMatchObject({ target: { kind: 'site' }, confirmed: true });
    expect(all.items[0]!.email).toBe('+plus@harbour.example');
    expect(all.counts).toEqual([
      { authorId: null, name: 'The whole site', confirmed: 4, waiting: 2, fediverseFollowers: 0 },
      { authorId: author.id, name: '=Skipper', confirmed: 0, waiting: 1, fediverseFollowers: 2 },
    ]);
    expect(all).toMatchObject({ page: 1, hasMore: false });

    expect((await list('?search=HARBOUR.example')).items).toHaveLength(7);
    expect((await list('?search=dee')).items.map((item) => item.email)).toEqual(['dee@harbour.example']);
    expect((await list('?search=%25')).items).toEqual([]);
    expect((await list('?page=2')).items).toEqual([]);

    // Paging: 50 a page.
    await t.database.db.insertInto('subscriptions').values(Array.from({ length: 50 }, (_, n) => ({ email: `many${n}@paging.example`, author_id: null }))).execute();
    const first = await list('?search=paging');
    expect(first).toMatchObject({ page: 1, hasMore: false });
    expect(first.items).toHaveLength(50);
    const pageOne = await list();
    expect(pageOne.hasMore).toBe(true);
    expect((await list('?page=2')).items).toHaveLength(7);

    // Export: a CSV download, formulas defused.
    const csv = await send(user, 'GET', '/api/admin/subscribers.csv?search=harbour');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="subscribers.csv"');
    const rows = parseCsv(csv.body).map((row) => row.cells);
    expect(rows[0]).toEqual(['email', 'subscribed_to', 'since', 'status']);
    expect(rows).toHaveLength(8);
    expect(rows).toContainEqual(["'+plus@harbour.example", 'the whole site', expect.any(String), 'confirmed']);
    expect(rows).toContainEqual(['fan@harbour.example', "'=Skipper", fan.since, 'waiting']);
    expect(csv.body).not.toMatch(/(^|,)[=+\-@]/m);

    // Remove: gone, logged with its address; a second remove is a 404.
    expect((await send(user, 'DELETE', `/api/admin/subscribers/${fan.id}`)).json()).toEqual({ status: 'removed' });
    expect((await list('?search=fan')).items).toEqual([]);
    expect((await send(user, 'DELETE', `/api/admin/subscribers/${fan.id}`)).statusCode).toBe(404);
    expect((await send(user, 'DELETE', '/api/admin/subscribers/not-an-id')).statusCode).toBe(404);
    expect((await auditActions()).filter((row) => row.action === 'subscriber.remove')).toEqual([{ action: 'subscriber.remove', subject: 'fan@harbour.example' }]);
  });
});
