import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML part, if the mail has one. */
  html?: string;
  links: string[];
  /** Header fields by lower-case name, unfolded (the last one of a name wins). */
  headers: Record<string, string>;
}

/**
 * Mails parsed so far, by path. The outbox mailer writes each `.eml` whole under a temporary name
 * and renames it, so a file, once listed, never changes: a test that polls the outbox parses
 * each mail once, not the whole outbox at every poll (the e2e server's holds hundreds).
 */
const parsedMails = new Map<string, Promise<OutboxMail>>();

/** Every `.eml` the outbox mailer wrote to `folder`, oldest first, parsed. */
export async function readOutbox(folder: string): Promise<OutboxMail[]> {
  let files: string[];
  try {
    files = readdirSync(folder).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map((file) => {
      const full = path.join(folder, file);
      let mail = parsedMails.get(full);
      if (!mail) {
        mail = parseMail(full, file);
        parsedMails.set(full, mail);
      }
      return mail;
    }),
  );
}

/** One `.eml`, parsed. */
async function parseMail(full: string, file: string): Promise<OutboxMail> {
  const parsed = await simpleParser(readFileSync(full));
  const text = parsed.text ?? '';
  const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
  const headers = Object.fromEntries(
    parsed.headerLines.map(({ key, line }) => [key.toLowerCase(), line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()]),
  );
  const html = typeof parsed.html === 'string' ? parsed.html : undefined;
  return { file, to: to ?? '', subject: parsed.subject ?? '', text, html, links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [], headers };
}
