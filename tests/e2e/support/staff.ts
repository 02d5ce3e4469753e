import type { Browser, Page } from '@playwright/test';
import { DEFAULT_PASSWORD, expect } from './fixtures';
import { hydrated, type OwnServer } from './own-server';

/** On /admin/people: invites `email` with `role` (its label), and waits for the invitation to be listed. */
export async function invite(page: Page, email: string, role: string): Promise<void> {
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role });
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByRole('button', { name: `Revoke invitation for ${email}` })).toBeVisible();
}

/** Opens the invitation mailed to `email` in a browser of its own, chooses a password and presses the one button that spends the link. */
export async function acceptInvitation(server: OwnServer, browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  const link = (await server.waitForMail(email, /invited/i)).links.find((each) => each.includes('accept_invitation'))!;
  await hydrated(page, link);
  await expect(page.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible();
  await page.getByLabel('New Password', { exact: true }).fill(DEFAULT_PASSWORD);
  await page.getByLabel('Confirm Password', { exact: true }).fill(DEFAULT_PASSWORD);
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect.poll(async () => (await (await context.request.get('/api/auth/get-session')).json())?.user?.email ?? null).toBe(email);
  return page;
}
