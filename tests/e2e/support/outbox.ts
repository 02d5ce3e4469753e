import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser } from 'mailparser';

export const E2E_DATA_DIR = path.resolve(import.meta.dirname, '../../../.e2e-data', process.env.E2E_PORT ?? '3100');

export interface Mail {
  file: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

async function readMails(): Promise<Mail[]> {
  const folder = path.join(E2E_DATA_DIR, 'mail');
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

/** Waits for the newest e-mail to `to` whose subject matches, as the server wrote it to its outbox. */
export async function waitForMail(to: string, subject: RegExp, options: { after?: Set<string> } = {}): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await readMails()).filter((m) => m.to === to && subject.test(m.subject) && !options.after?.has(m.file));
        found = mails.at(-1);
        return Boolean(found);
      },
      { timeout: 15_000, message: `an e-mail to ${to} with subject ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** Files already in the outbox, so a test can wait for a newer mail than these. */
export async function mailFilesNow(): Promise<Set<string>> {
  return new Set((await readMails()).map((m) => m.file));
}
