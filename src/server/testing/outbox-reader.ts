import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
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
      return { file, to: to ?? '', subject: parsed.subject ?? '', text, links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [] };
    }),
  );
}
