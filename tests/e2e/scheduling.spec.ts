import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, signUpVerified, test } from './support/fixtures';

const unique = () => randomBytes(4).toString('hex');

/** `datetime-local`'s value for a moment, in the browser's own time zone. */
async function localInputValue(page: Page, msAhead: number): Promise<string> {
  return page.evaluate((ahead) => {
    const at = new Date(Date.now() + ahead);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }, msAhead);
}

async function closeDialog(page: Page, text: string | RegExp) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: 'Okay' }).click();
  await expect(dialog).toHaveCount(0);
}

test('Schedule keeps a blog private until its time, shows it in My Drafts, and Unschedule takes the time back', async ({ page, context }) => {
  await signUpVerified(context);
  const title = `Monday at nine ${unique()}`;
  await page.goto('/create');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Content').fill('Written today, read next week.');

  // No time chosen: the form says so and sends nothing.
  await page.getByRole('button', { name: 'Schedule' }).click();
  await closeDialog(page, 'Choose the date and time to publish at.');

  await page.getByLabel('Publish at').fill(await localInputValue(page, 3 * 24 * 3_600_000));
  await page.getByRole('button', { name: 'Schedule' }).click();
  await closeDialog(page, /Scheduled for /);
  await expect(page).toHaveURL(/\/drafts$/);
  const draft = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(draft).toContainText('Scheduled for');

  // Not public meanwhile: a visitor's search does not find it.
  const visitor = await page.context().browser()!.newContext();
  const response = await visitor.request.get(`${new URL(page.url()).origin}/api/search?searchTerm=${encodeURIComponent(title)}`);
  expect(((await response.json()) as { total: number }).total).toBe(0);
  await visitor.close();

  await draft.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page.getByText(/^Scheduled for /)).toBeVisible();
  await page.getByRole('button', { name: 'Unschedule' }).click();
  await closeDialog(page, 'The blog is no longer scheduled; it stays a draft.');
  await page.goto('/drafts');
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) })).not.toContainText('Scheduled for');

  // A time already past publishes at once.
  await page.getByRole('link', { name: `Edit ${title}` }).click();
  await page.getByLabel('Publish at').fill(await localInputValue(page, -3_600_000));
  await page.getByRole('button', { name: 'Schedule' }).click();
  await closeDialog(page, 'Blog Published!');
  await expect(page).toHaveURL(/\/$/);
});
