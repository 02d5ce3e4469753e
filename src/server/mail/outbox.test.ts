import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outbox } from '../../shared/outbox-schema.js';
import { get, post, waitForMail } from '../testing/auth-test-kit.js';
import { giveRole } from '../testing/site-managers.js';
import { startSmtpServer } from '../testing/smtp-server.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp, type TestApp } from '../testing/test-app.js';
import { signUpUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';

describe('the Outbox on /admin (no SMTP server)', () => {
  const t = useTestApp();
  const { admin, author } = useSignedUpUsers(t, ['admin', 'author']);

  it('lists the newest mails for those who manage the site, newest first, with their links to this site whole', async () => {
    await giveRole(t, admin, 'administrator');
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    for (const email of [first, second]) {
      expect((await post(t.app, '/api/auth/sign-in/magic-link', { email })).statusCode).toBe(200);
      await waitForMail(t, email, /sign-in link/);
    }
    // An older file the way nodemailer wrote it before (quoted-printable, a Subject in encoded words), and a stranger's link.
    writeFileSync(
      path.join(t.dataDir, 'mail', '2000-01-01T00-00-00-000Z-00000000.eml'),
      [
        'From: Blogging Site <no-reply@localhost>',
        'To: old@example.com',
        'Subject: =?UTF-8?Q?Caf=C3=A9_news?=',
        'Date: Sat, 01 Jan 2000 00:00:00 +0000',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        `Open ${TEST_PUBLIC_URL}/auth?view=3Dmagic_link_confirm&token=3D=`,
        'abc or https://elsewhere.example/x',
        '',
      ].join('\r\n'),
    );

    const response = await get(t.app, '/api/admin/outbox', { cookie: admin.cookie });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toMatch(/private/);
    const { mails } = response.json<Outbox>();
    const signIns = mails.filter((mail) => mail.to === first || mail.to === second);
    expect(signIns.map((mail) => mail.to)).toEqual([second, first]);
    const mail = signIns[0]!;
    expect(mail.subject).toBe('Your sign-in link');
    expect(Date.now() - Date.parse(mail.sentAt)).toBeLessThan(60_000);
    expect(mail.links).toHaveLength(1);
    const link = new URL(mail.links[0]!);
    expect(link.origin + link.pathname).toBe(`${TEST_PUBLIC_URL}/auth`);
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z]{32}$/);
    expect(mails.at(-1)).toEqual({ to: 'old@example.com', subject: 'Café news', sentAt: '2000-01-01T00:00:00.000Z', links: [`${TEST_PUBLIC_URL}/auth?view=magic_link_confirm&token=abc`] });
  });

  it('is the 404 of a page that does not exist for anyone else', async () => {
    expect((await get(t.app, '/api/admin/outbox', { cookie: author.cookie })).statusCode).toBe(404);
    expect([401, 404]).toContain((await get(t.app, '/api/admin/outbox')).statusCode);
  });

  it('lists at most 20 mails', async () => {
    for (let i = 0; i < 22; i++) writeFileSync(path.join(t.dataDir, 'mail', `2001-01-01T00-00-${String(i).padStart(2, '0')}-000Z-0000000${i % 10}.eml`), `To: n${i}@example.com\r\nSubject: ${i}\r\n\r\nHello\r\n`);
    const { mails } = (await get(t.app, '/api/admin/outbox', { cookie: admin.cookie })).json<Outbox>();
    expect(mails).toHaveLength(20);
  });
});

describe('with an SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('there is no Outbox', async () => {
    const admin = await signUpUser(t.app);
    await giveRole(t, admin, 'administrator');
    expect((await get(t.app, '/api/admin/outbox', { cookie: admin.cookie })).statusCode).toBe(404);
  });
});
