import type { Browser } from '@playwright/test';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';
import { hydrated, useOwnServer } from './support/own-server';

/**
 * A first run that explains itself (issue 58), on a fresh server of the spec's own with no SMTP
 * server: the home page says the first account becomes the owner (JavaScript off too), the sign-up
 * notice says where the mail went, and the owner finds the mail's link in /admin's Outbox.
 */
test.describe('a fresh site’s first run', () => {
  const server = useOwnServer();

  async function plainPage(browser: Browser, path: string) {
    const context = await browser.newContext({ baseURL: server.baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(path);
    return page;
  }

  test('the home page names the owner’s seat, the sign-up says where its mail went, and the Outbox has the link', async ({ browser }) => {
    test.setTimeout(120_000);
    const fresh = await plainPage(browser, '/');
    await expect(fresh.getByText('the first account created becomes its owner')).toBeVisible();
    await expect(fresh.getByText('There are no blogs in the database :(')).toBeVisible();
    await expect(fresh.getByRole('link', { name: 'Create the first account' })).toHaveAttribute('href', '/auth?view=sign_up');

    const context = await browser.newContext({ baseURL: server.baseURL });
    const owner = await context.newPage();
    await hydrated(owner, '/');
    await owner.getByRole('link', { name: 'Create the first account' }).click();
    await expect(owner).toHaveURL(/view=sign_up/);
    const email = uniqueEmail('first');
    await owner.getByLabel('Email address', { exact: true }).fill(email);
    await owner.getByLabel('Create a Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await owner.getByRole('button', { name: 'Sign up', exact: true }).click();
    const notice = owner.getByRole('status').filter({ hasText: 'Check your email for the confirmation link' });
    await expect(notice).toContainText('written as a file to the server’s outbox folder');

    const mail = await server.waitForMail(email, /Confirm your e-mail address/);
    await hydrated(owner, mail.links[0]!);
    await owner.getByRole('button', { name: 'Confirm my email address' }).click();
    await expect.poll(async () => (await (await context.request.get('/api/auth/get-session')).json())?.user?.email ?? null).toBe(email);

    // The seat is taken: the home page no longer offers it.
    const after = await plainPage(browser, '/');
    await expect(after.getByText('There are no blogs in the database :(')).toBeVisible();
    await expect(after.getByText('the first account created becomes its owner')).toHaveCount(0);

    await hydrated(owner, '/admin/outbox');
    const outbox = owner.getByRole('table', { name: 'Outbox, newest first' });
    const row = outbox.getByRole('row').filter({ hasText: 'Confirm your e-mail address' });
    await expect(row).toContainText(email);
    await expect(row.getByRole('link', { name: mail.links[0]! })).toHaveAttribute('href', mail.links[0]!);
    await expect(row.getByRole('link', { name: mail.links[0]! })).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
