import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser } from 'mailparser';
import { startSmtpServer } from '../testing/smtp-server.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { authHeaders, randomIp, uniqueEmail } from '../testing/test-users.js';
import { createMailer, extractLinks } from './mailer.js';

describe('mail through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Blog <no-reply@blog.example>' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers the magic-link e-mail to a real SMTP server, with a link to our page', async () => {
    const email = uniqueEmail('smtp');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: authHeaders,
      remoteAddress: randomIp(),
      payload: JSON.stringify({ email }),
    });
    expect(response.statusCode).toBe(200);
    await vi.waitFor(() => expect(smtp.received.length).toBe(1), { timeout: 5_000 });

    const { envelopeTo, mail } = smtp.received[0]!;
    expect(envelopeTo).toEqual([email]);
    expect(mail.subject).toBe('Your sign-in link');
    expect(mail.from?.text).toContain('no-reply@blog.example');
    const link = new URL(extractLinks(mail.text ?? '')[0]!);
    expect(link.origin + link.pathname).toBe(`${t.config.publicUrl}/auth`);
    expect(link.searchParams.get('view')).toBe('magic_link_confirm');
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z]{32}$/);
    // With SMTP configured, nothing lands in the outbox folder.
    expect(await t.outbox()).toEqual([]);
  });
});

describe('the outbox (no SMTP_URL)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mail-test-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes each message as an RFC 5322 .eml file with CRLF line ends, readable by the owner only, and logs its file, not its address or links', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(32), MAIL_FROM: 'Blog <no-reply@blog.example>' });
    const info = vi.fn();
    const logger = { info } as unknown as FastifyBaseLogger;
    const mailer = createMailer(config, logger);
    await mailer.send({
      to: 'reader@example.com',
      subject: 'Your sign-in link',
      text: 'Open this:\nhttp://localhost:3000/auth?view=magic_link_confirm&token=abc\nThanks\n',
    });
    mailer.close();

    const folder = path.join(dataDir, 'mail');
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT.*\.eml$/);
    const file = path.join(folder, files[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const raw = readFileSync(file, 'latin1');
    const [head] = raw.split('\r\n\r\n');
    expect(raw.replace(/\r\n/g, '')).not.toContain('\n');
    expect(head).toMatch(/^From: Blog <no-reply@blog\.example>$/m);
    expect(head).toMatch(/^To: reader@example\.com\r?$/m);
    expect(head).toMatch(/^Subject: Your sign-in link\r?$/m);
    expect(head).toMatch(/^Date: /m);
    expect(head).toMatch(/^Message-ID: </im);

    const parsed = await simpleParser(readFileSync(file));
    expect(parsed.text).toContain('http://localhost:3000/auth?view=magic_link_confirm&token=abc');
    expect(info).toHaveBeenCalledWith(
      { subject: 'Your sign-in link', file: file },
      'mail written to outbox',
    );
  });

  it('writes text and HTML as they are, so a long link is one line of the file, copied whole', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'mail-lines-'));
    try {
      const config = loadConfig({ DATA_DIR: folder, AUTH_SECRET: 'x'.repeat(32) });
      const mailer = createMailer(config, { info: () => {} } as unknown as FastifyBaseLogger);
      const link = `http://localhost:3000/auth?view=magic_link_confirm&token=${'A'.repeat(32)}&callbackURL=%2Fmy-blogs%3Ftab%3Ddrafts`;
      await mailer.send({ to: 'ascii@example.com', subject: 'Plain', text: `Open this:\n${link}\n` });
      await mailer.send({ to: 'utf8@example.com', subject: 'Both', text: `Open this:\n${link}\n\n— Harbour Notes “café”\n`, html: `<p><a href="${link}">${link}</a></p><p>— Harbour Notes</p>` });
      await mailer.send({ to: 'long@example.com', subject: 'Long', text: `${'word '.repeat(250)}\n${link}\n` });
      mailer.close();

      const files = readdirSync(path.join(folder, 'mail')).sort().map((name) => readFileSync(path.join(folder, 'mail', name)));
      const [ascii, utf8, long] = files.map((file) => file.toString('utf8'));
      for (const raw of [ascii!, utf8!]) {
        expect(raw.split('\r\n')).toContain(link);
        expect(raw).not.toContain('=3D');
        expect(raw).not.toMatch(/quoted-printable|base64/i);
      }
      expect(ascii).toMatch(/^Content-Transfer-Encoding: 7bit$/m);
      expect(utf8).toMatch(/^Content-Transfer-Encoding: 8bit\r$/m);
      expect(utf8).toContain(`<a href="${link}">`);
      expect(utf8).toContain('— Harbour Notes “café”');
      // A line past SMTP's 998 bytes keeps nodemailer's encoding: a server may refuse or cut it.
      expect(long).toMatch(/Content-Transfer-Encoding: quoted-printable/);
      const parsed = await Promise.all(files.map((file) => simpleParser(file)));
      expect(parsed.map((mail) => mail.text)).toEqual([`Open this:\n${link}\n`, `Open this:\n${link}\n\n— Harbour Notes “café”\n`, `${'word '.repeat(250)}\n${link}\n`]);
      expect(parsed[1]!.html).toContain(`href="${link}"`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
