import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files.js';
import type Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra header fields (e.g. `List-Unsubscribe`), as nodemailer takes them. */
  headers?: Record<string, string>;
  /** Set by `fromTheSite` (mail-sender.ts) as the message is made; nodemailer encodes the name. */
  from?: { name: string; address: string };
  /** A fixed `Message-ID` (`<…@…>`): a message sent twice (a retry after a crash) is one message to mail programs. */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * `SMTP_URL` set: messages go out through SMTP. Unset: each message is written as an RFC 5322
 * `.eml` file under `DATA_DIR/mail/`, so nothing is lost offline, and the log names the file. Not
 * its address nor its links: those carry sign-in tokens, and no log line may hold either.
 */
export function createMailer(config: Config, logger: FastifyBaseLogger): Mailer {
  const { name, address } = config.mail.from;
  // The app's messages come with their From (`fromTheSite`); this is for a message made without it.
  const from = name ? { name, address } : address;
  const { smtpUrl } = config.mail;
  if (smtpUrl) {
    // Pooled: a few connections kept open and reused, not one handshake a message (a newsletter is thousands).
    const transport = lazyTransport((nodemailer) => nodemailer.createTransport(pooled(smtpUrl)));
    return {
      async send(message) {
        await (await transport.get()).sendMail({ from, ...message });
      },
      close: () => transport.close(),
    };
  }

  const outbox = path.join(config.dataDir, 'mail');
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }).use('stream', (mail, done) => {
    keepLinesWhole(mail.message);
    done();
  }));
  return {
    async send(message) {
      const info = await (await transport.get()).sendMail({ from, ...message });
      await mkdir(outbox, { recursive: true, mode: PRIVATE_DIR_MODE });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const temporary = path.join(outbox, `.${name}.tmp`);
      await writeFile(temporary, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      await rename(temporary, path.join(outbox, name));
      logger.info({ subject: message.subject, file: path.join(outbox, name) }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}

/** What `keepLinesWhole` reads of nodemailer's MIME tree (a `MimeNode`). */
interface MimePart {
  childNodes: MimePart[];
  content?: unknown;
  getHeader(key: string): unknown;
  getTransferEncoding(): string | false;
}

/** SMTP's longest line (RFC 5322 2.1.1), its CRLF left out. */
const MAX_LINE_BYTES = 998;

/**
 * The outbox's text parts are written as they are (7bit, or 8bit with UTF-8), not in
 * quoted-printable, which folds a link over several lines with `=3D` for each `=`: a reader of the
 * `.eml` copies it whole. Only where every line fits SMTP's limit; a longer one keeps nodemailer's
 * encoding. (nodemailer recomputes a text part's encoding from its content, whatever header it is given.)
 */
export function keepLinesWhole(part: MimePart): void {
  for (const child of part.childNodes) keepLinesWhole(child);
  const { content } = part;
  if (typeof content !== 'string' || !/^text\//i.test(String(part.getHeader('Content-Type') ?? ''))) return;
  if (/\r(?!\n)/.test(content) || content.split(/\r?\n/).some((line) => Buffer.byteLength(line) > MAX_LINE_BYTES)) return;
  const encoding = Buffer.byteLength(content) === content.length ? '7bit' : '8bit';
  part.getTransferEncoding = () => encoding;
}

/** `SMTP_URL` with nodemailer's `pool=true`, unless it says otherwise. */
export function pooled(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.href;
}

/** nodemailer loads with the first message, not at start-up: many sites send none for hours. */
function lazyTransport<T extends Transporter>(create: (nodemailer: typeof Nodemailer) => T) {
  let made: Promise<T> | undefined;
  let transport: T | undefined;
  return {
    get: () => (made ??= import('nodemailer').then((module) => (transport = create(module.default)))),
    close: () => transport?.close(),
  };
}

export function extractLinks(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}
