import path from 'node:path';
import { expect } from '@playwright/test';
import { readOutbox, type OutboxMail } from '../../../src/server/testing/outbox-reader';

export const E2E_DATA_DIR = path.resolve(import.meta.dirname, '../../../.e2e-data', process.env.E2E_PORT ?? '3100');

export type Mail = OutboxMail;

const readMails = () => readOutbox(path.join(E2E_DATA_DIR, 'mail'));

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

/** Every e-mail in the outbox now, oldest first (to count what arrived once a wait is over). */
export function readOutboxNow(): Promise<Mail[]> {
  return readMails();
}

/** Files already in the outbox, so a test can wait for a newer mail than these. */
export async function mailFilesNow(): Promise<Set<string>> {
  return new Set((await readMails()).map((m) => m.file));
}
