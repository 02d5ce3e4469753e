import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test, uniqueEmail } from './support/fixtures';

const unique = () => randomBytes(4).toString('hex');
const autosaveStatus = (page: Page) => page.getByTestId('autosave-status');
const homeLink = (page: Page) => page.getByRole('link', { name: 'Home', exact: true }).first();

async function createViaApi(request: APIRequestContext, fields: { title: string; blog: string; status?: 'draft' | 'published' }) {
  const response = await request.post('/api/blogs', { multipart: fields, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

/** Pages through the home list until a card with the title shows (other tests write blogs too). */
async function expectOnHomeList(page: Page, title: string) {
  await page.goto('/');
  for (let n = 1; n <= 30; n++) {
    await expect(page.getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]')).toHaveText(`Page ${n}`);
    if ((await page.getByRole('heading', { name: title, exact: true }).count()) > 0) return;
    await page.getByRole('button', { name: 'Next' }).click();
  }
  throw new Error(`"${title}" is not on the home list`);
}

async function closeDialog(page: Page, text: string, button = 'Okay') {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toHaveCount(0);
}

test.describe('drafts', () => {
  test('autosave makes a draft that survives a reload, is listed in My Drafts, and publishes onto the home list', async ({ page, context }) => {
    await signUpVerified(context);
    const title = `Half-written ${unique()}`;
    await page.goto('/create');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Content').fill('The first words of a draft.');
    await expect(autosaveStatus(page)).toHaveText('Saved', { timeout: 15_000 });
    // The first autosave made a server draft; the address is now that draft's.
    await expect(page).toHaveURL(/\/edit\?id=[0-9a-f-]{36}$/);

    await page.reload();
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
    await expect(page.getByLabel('Content')).toHaveValue('The first words of a draft.');
    await expect(page.getByRole('button', { name: 'Save draft' })).toBeVisible();

    // Saved: leaving asks nothing.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('link', { name: 'My Drafts' }).click();
    await expect(page).toHaveURL(/\/drafts$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await page.getByRole('link', { name: `Edit ${title}` }).click();

    await page.getByRole('button', { name: 'Publish' }).click();
    await closeDialog(page, 'Blog Published!');
    await expect(page).toHaveURL(/\/$/);
    await expectOnHomeList(page, title);
  });

  test('leaving an edited blog through a link asks first: Stay keeps the text, Leave goes; the edits come back on return', async ({ page, context }) => {
    await signUpVerified(context);
    const title = `Live post ${unique()}`;
    const blog = await createViaApi(context.request, { title, blog: 'Published words.' });
    await page.goto(`/edit?id=${blog.id}`);
    await page.getByLabel('Content').fill('Published words, and a change not yet published.');
    await expect(autosaveStatus(page)).toHaveText('Changes kept on this device');

    await homeLink(page).click();
    await closeDialog(page, 'You have changes that are not saved yet.', 'Stay');
    await expect(page).toHaveURL(new RegExp(`/edit\\?id=${blog.id}$`));
    await expect(page.getByLabel('Content')).toHaveValue('Published words, and a change not yet published.');

    await homeLink(page).click();
    await closeDialog(page, 'You have changes that are not saved yet.', 'Leave');
    await expect(page).toHaveURL(/\/$/);
    // The live post did not change while typing.
    const live = await context.request.get(`/api/blogs/${blog.id}`);
    expect(((await live.json()) as { blog: string }).blog).toBe('Published words.');

    await page.goto(`/edit?id=${blog.id}`);
    await expect(page.getByText('Unsaved changes restored')).toBeVisible();
    await expect(page.getByLabel('Content')).toHaveValue('Published words, and a change not yet published.');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByLabel('Content')).toHaveValue('Published words.');
  });

  test('a draft is 404 to anyone but its owner', async ({ browser, page, context }) => {
    await signUpVerified(context);
    const title = `Secret draft ${unique()}`;
    const draft = await createViaApi(context.request, { title, blog: 'Not for your eyes.', status: 'draft' });
    // Its owner sees it (the page asks again with the session once it knows who is there).
    await page.goto(`/viewBlog?id=${draft.id}`);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();

    const stranger = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.251.${randomBytes(1)[0]}.7` } });
    try {
      await signUpVerified(stranger, uniqueEmail('stranger'));
      const theirPage = await stranger.newPage();
      const response = await theirPage.goto(`/viewBlog?id=${draft.id}`);
      expect(response?.status()).toBe(404);
      await theirPage.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await expect(theirPage.getByRole('heading', { name: 'This blog does not exist' })).toBeVisible();
      await expect(theirPage.getByText(title)).toHaveCount(0);
      await theirPage.goto(`/edit?id=${draft.id}`);
      await closeDialog(theirPage, 'Blog not found!');
      await expect(theirPage).toHaveURL(/\/$/);
    } finally {
      await stranger.close();
    }
  });

  test("the AI generator's 'Use as a draft' saves a draft and opens it in /edit", async ({ page, context }) => {
    await signUpVerified(context);
    await page.goto('/ai');
    await page.getByRole('button', { name: 'Generate Blog' }).click();
    await expect(page.getByRole('button', { name: 'Generate Blog' })).toBeEnabled({ timeout: 15_000 });
    const title = (await page.getByTestId('generated-blog').locator('h1').innerText()).trim();
    await page.getByRole('button', { name: 'Use as a draft' }).click();

    await expect(page).toHaveURL(/\/edit\?id=[0-9a-f-]{36}$/);
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
    await expect(page.getByLabel('Content')).not.toHaveValue('');
    await expect(page.getByRole('button', { name: 'Publish' })).toBeVisible();
    const id = new URL(page.url()).searchParams.get('id')!;
    const saved = (await (await context.request.get(`/api/blogs/${id}`)).json()) as { status: string; title: string };
    expect(saved).toMatchObject({ status: 'draft', title });
  });
});
