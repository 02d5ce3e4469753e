import type { BrowserContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { E2E_MODERATOR_EMAIL, expect, signUpVerified, test } from './support/fixtures';

async function newBlog(context: BrowserContext, title: string): Promise<string> {
  const response = await context.request.post('/api/blogs', { multipart: { title, blog: 'Cheap watches, every day.' }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function report(page: Page, blogId: string) {
  await page.goto(`/viewBlog?id=${blogId}`);
  await page.getByRole('button', { name: 'Report', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this blog' });
  await dialog.getByRole('button', { name: 'Send report' }).click();
  // No reason chosen: the dialog asks again.
  await expect(page.getByRole('dialog', { name: 'Report this blog' }).getByRole('alert')).toHaveText('Choose a reason.');
  await page.getByRole('dialog').getByRole('radio', { name: 'Spam' }).check();
  await page.getByRole('dialog').getByLabel('Details (optional)').fill('Advertising.');
  await page.getByRole('dialog').getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByRole('dialog', { name: 'Report sent' })).toBeVisible();
  await page.getByRole('button', { name: 'Okay' }).click();
}

test('a reader reports a blog; a moderator hides and restores it, suspends its author and lifts it', async ({ browser, page: readerPage }) => {
  const title = `Watches ${Date.now()}`;
  const authorContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.200.0.1' } });
  const moderatorContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.200.0.2' } });
  const author = await signUpVerified(authorContext);
  await signUpVerified(readerPage.context());
  await signUpVerified(moderatorContext, E2E_MODERATOR_EMAIL);
  const blogId = await newBlog(authorContext, title);
  const authorPage = await authorContext.newPage();
  const moderatorPage = await moderatorContext.newPage();
  const hydrated = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');

  // Readers do not see the moderators' page: the site's 404 page.
  await readerPage.goto('/moderation');
  await expect(readerPage.getByRole('heading', { name: 'The Page you are looking for does not exist' })).toBeVisible();

  await report(readerPage, blogId);

  // The moderator finds it through the More menu.
  await moderatorPage.goto('/');
  await hydrated(moderatorPage);
  await moderatorPage.getByRole('button', { name: 'More' }).click();
  await moderatorPage.getByRole('link', { name: 'Moderation' }).click();
  const card = moderatorPage.getByRole('article', { name: `Report on ${title}` });
  await expect(card).toContainText('Spam: Advertising.');
  await card.getByRole('button', { name: 'Hide' }).click();
  await expect(card).toHaveCount(0);
  const log = moderatorPage.getByRole('table', { name: 'Moderation log' });
  await expect(log).toContainText(`Hid blog “${title}”`);
  await expect(log).toContainText('Spam: Advertising.');

  // Gone for the reader; still there, with the notice, for its author.
  await readerPage.goto(`/viewBlog?id=${blogId}`);
  await expect(readerPage.getByRole('heading', { name: 'This blog does not exist' })).toBeVisible();
  await authorPage.goto(`/viewBlog?id=${blogId}`);
  await hydrated(authorPage);
  await expect(authorPage.getByText('Hidden by a moderator')).toBeVisible();
  await expect(authorPage.getByRole('heading', { name: title })).toBeVisible();

  await moderatorPage.getByRole('article', { name: `Hidden: ${title}` }).getByRole('button', { name: 'Restore' }).click();
  await expect(log).toContainText(`Restored blog “${title}”`);
  await readerPage.goto(`/viewBlog?id=${blogId}`);
  await expect(readerPage.getByRole('heading', { name: title })).toBeVisible();

  // Reported again; this time the author is suspended: signed out at once, and refused at sign-in.
  await report(readerPage, blogId);
  await moderatorPage.reload();
  await moderatorPage.getByRole('article', { name: `Report on ${title}` }).getByRole('button', { name: 'Suspend author' }).click();
  await moderatorPage.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(log).toContainText(`Suspended account “${author.email}”`);
  expect(await (await authorContext.request.get('/api/auth/get-session')).json()).toBeNull();

  await authorPage.goto('/auth');
  await authorPage.getByLabel('Email address', { exact: true }).fill(author.email);
  await authorPage.getByLabel('Your Password', { exact: true }).fill(author.password);
  await authorPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(authorPage.getByText('This account is suspended.')).toBeVisible();
  await readerPage.goto(`/viewBlog?id=${blogId}`);
  await expect(readerPage.getByRole('heading', { name: 'This blog does not exist' })).toBeVisible();

  await moderatorPage.getByRole('button', { name: `Unsuspend ${author.email}` }).click();
  await expect(log).toContainText(`Unsuspended account “${author.email}”`);
  await readerPage.goto(`/viewBlog?id=${blogId}`);
  await expect(readerPage.getByRole('heading', { name: title })).toBeVisible();

  await authorContext.close();
  await moderatorContext.close();
});
