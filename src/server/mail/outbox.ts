import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutboxMail } from '../../shared/outbox-schema.js';
import { extractLinks } from './mailer.js';

/**
 * The newest `limit` mails of the outbox folder, newest first (their names start with the time
 * they were written), read as the outbox mailer writes them: a text part, in 7bit or 8bit, or in
 * quoted-printable or base64 as older files have it. Only links to `siteOrigin` are kept: a
 * forwarded contact message may carry anyone's.
 */
export async function latestOutboxMails(folder: string, limit: number, siteOrigin: string): Promise<OutboxMail[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith('.eml') && !name.startsWith('.'));
  } catch {
    return [];
  }
  const newest = names.sort().reverse().slice(0, limit);
  const mails = await Promise.all(newest.map(async (name) => readOutboxMail(await readFile(path.join(folder, name)).catch(() => null), siteOrigin)));
  return mails.filter((mail): mail is OutboxMail => mail !== null);
}

function readOutboxMail(raw: Buffer | null, siteOrigin: string): OutboxMail | null {
  if (!raw) return null;
  const { headers, body } = splitPart(raw);
  const date = new Date(headers.get('date') ?? '');
  const text = textOf(headers, body);
  return {
    to: decodeWords(headers.get('to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    sentAt: Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString(),
    links: [...new Set(extractLinks(text).filter((link) => URL.canParse(link) && new URL(link).origin === siteOrigin))],
  };
}

/** A MIME part's header fields (lower-case names, unfolded) and its body's bytes. */
function splitPart(raw: Buffer): { headers: Map<string, string>; body: Buffer } {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end < 0 ? raw.length : end).toString('latin1').replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? Buffer.alloc(0) : raw.subarray(end + 4) };
}

/** The first text/plain part's text, decoded. */
function textOf(headers: Map<string, string>, body: Buffer): string {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /^multipart\//i.test(type) ? /boundary="?([^";]+)"?/i.exec(type)?.[1] : undefined;
  if (boundary) {
    const parts = body.toString('latin1').split(`--${boundary}`).slice(1, -1);
    for (const part of parts) {
      const { headers: partHeaders, body: partBody } = splitPart(Buffer.from(part.replace(/^\r\n/, ''), 'latin1'));
      const text = textOf(partHeaders, partBody);
      if (text) return text;
    }
    return '';
  }
  if (!/^text\/plain/i.test(type)) return '';
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.toString('latin1'), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body.toString('latin1'));
  return body.toString('utf8');
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as nodemailer writes a header that is not ASCII. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, data: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}
