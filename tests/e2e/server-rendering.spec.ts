import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test } from './support/fixtures';

interface ApiBlog {
  id: string;
  title: string;
}

const unique = () => Math.random().toString(36).slice(2, 8);

async function createBlog(request: APIRequestContext, title: string, blog: string): Promise<ApiBlog> {
  const response = await request.post('/api/blogs', { multipart: { title, blog }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ApiBlog;
}

const cards = (page: Page) => page.locator('main article');
const cardTitles = (page: Page) => cards(page).getByRole('heading').allTextContents();

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the home list, its second page, a blog and its link are readable from the HTML alone', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    const word = `Scriptless${unique()}`;
    const created: ApiBlog[] = [];
    // Ten, so the home list has a full second page even when this test runs alone.
    for (let i = 1; i <= 10; i++) created.push(await createBlog(context.request, `${word} blog ${i}`, `Paragraph of blog ${i}.`));

    await page.goto('/');
    await expect(cards(page)).toHaveCount(5);
    const first = cards(page).first();
    await expect(first.getByText(/^Author: /)).toBeVisible();
    await expect(first.getByRole('heading')).toBeVisible();
    await expect(first.getByText(/^Upvote Count: \d+$/)).toBeVisible();
    await expect(first.getByText(/^Downvote Count: \d+$/)).toBeVisible();
    await expect(first.getByText(/^Created /)).toBeVisible();

    // The home list is shared with the tests running beside this one, so page 2 is checked for
    // its own five cards here, and the paging itself on this test's own blogs below.
    await page.goto('/?page=2');
    await expect(cards(page)).toHaveCount(5);
    await expect(page.getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]')).toHaveText('Page 2');

    await page.goto(`/search?searchTerm=${word}`);
    await expect(page.getByText(`10 blogs matched the search term ${word}`)).toBeVisible();
    await expect(cards(page)).toHaveCount(5);
    const onFirstPage = await cardTitles(page);
    await page.goto(`/search?searchTerm=${word}&page=2`);
    const onSecondPage = await cardTitles(page);
    expect(onSecondPage).toHaveLength(5);
    expect([...onFirstPage, ...onSecondPage].sort()).toEqual(created.map((blog) => blog.title).sort());

    // A card's link is a real link: it opens the blog as a new page (blog 8: newest first, on page 1).
    await page.goto(`/search?searchTerm=${word}`);
    const card = cards(page).filter({ hasText: `${word} blog 8` });
    await card.getByRole('link', { name: 'View this Blog' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/viewBlog?id=${created[7]!.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `${word} blog 8` })).toBeVisible();
    await expect(page.getByText('Paragraph of blog 8.')).toBeVisible();
    await expect(page.getByText(`Author: ${email}`)).toBeVisible();
    await expect(page).toHaveTitle(`${word} blog 8 · Blogging Site`);
  });

  test('About and Support show their whole text, the FAQ answers included', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible();
    await page.goto('/support');
    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible();
    await expect(page.getByText('Open Settings and choose Delete Account.', { exact: false })).toBeVisible();
    await expect(page.getByText('Reading, writing, voting and the AI Blog Generator are all free.')).toBeVisible();
  });

  test('an unknown blog and an unknown page answer 404 with their screens', async ({ page }) => {
    const blog = await page.goto('/viewBlog?id=00000000-0000-4000-8000-000000000000');
    expect(blog?.status()).toBe(404);
    await expect(page.getByText('This blog does not exist')).toBeVisible();
    const unknown = await page.goto('/no/such/page');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByText('The Page you are looking for does not exist')).toBeVisible();
  });
});

test('the browser hydrates the pages without a warning, and navigation after that stays in the page', async ({ page, context }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  let documents = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents += 1;
  });

  await signUpVerified(context);
  const word = `Hydrate${unique()}`;
  const blog = await createBlog(context.request, `${word} walk`, 'A blog to walk to.');
  await context.clearCookies();

  await page.goto('/');
  await expect(cards(page).first()).toBeVisible();
  // Hydrated: the page answers clicks (the pager's dialog needs React).
  await page.getByRole('button', { name: 'Prev' }).click();
  await expect(page.getByRole('dialog')).toContainText('You are already on the first page');
  await page.getByRole('button', { name: 'Okay' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('searchbox', { name: 'Search' }).fill(word);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page.getByText(`1 blogs matched the search term ${word}`)).toBeVisible();
  await expect(page).toHaveTitle(`Search: ${word} · Blogging Site`);
  await cards(page).getByRole('link', { name: 'View this Blog' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/viewBlog?id=${blog.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${word} walk` })).toBeVisible();
  await expect(page).toHaveTitle(`${word} walk · Blogging Site`);
  await page.goBack();
  await expect(page.getByText(`1 blogs matched the search term ${word}`)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
  await expect(cards(page).first()).toBeVisible();

  // Then a blog page loaded directly, hydrated the same way.
  await page.goto(`/viewBlog?id=${blog.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${word} walk` })).toBeVisible();
  await page.getByRole('link', { name: 'Home', exact: true }).first().click();
  await expect(cards(page).first()).toBeVisible();

  expect(documents, 'full page loads: only the two typed into the address bar').toBe(2);
  expect(problems).toEqual([]);
});
