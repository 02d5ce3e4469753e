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

/** Every `.eml` the outbox mailer wrote to `folder`, oldest first, parsed. */
export async function readOutbox(folder: string): Promise<OutboxMail[]> {
  let files: string[];
  try {
    files = readdirSync(folder).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => {
      const parsed = await simpleParser(readFileSync(path.join(folder, file)));
      const text = parsed.text ?? '';
      const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
      const headers = Object.fromEntries(
        parsed.headerLines.map(({ key, line }) => [key.toLowerCase(), line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()]),
      );
      const html = typeof parsed.html === 'string' ? parsed.html : undefined;
      return { file, to: to ?? '', subject: parsed.subject ?? '', text, html, links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [], headers };
    }),
  );
}
