import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, held, signUpVerified, test } from './support/fixtures';

/** Letters only, so each test's titles share a word no other test uses. */
const uniqueWord = () =>
  Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function createBlog(request: APIRequestContext, title: string): Promise<{ id: string }> {
  const response = await request.post('/api/blogs', { multipart: { title, blog: `Content of ${title}` }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function searchFromNavbar(page: Page, term: string) {
  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill(term);
  await box.press('Enter');
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.help}`)).toEqual([]);
}

const cards = (page: Page) => page.locator('main article');
const pageNumber = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]');

test.describe('search', () => {
  test('from the navbar on Enter: the count, a card per blog with its link, OR semantics', async ({ page, context }) => {
    await signUpVerified(context);
    const apple = uniqueWord();
    const pear = uniqueWord();
    const first = await createBlog(context.request, `${apple} orchard notes`);
    await createBlog(context.request, `${pear} harvest`);
    await createBlog(context.request, `${apple} and ${pear} jam`);

    await page.goto('/about');
    await searchFromNavbar(page, `${apple} ${pear}`);
    await expect(page).toHaveURL(new RegExp(`/search\\?searchTerm=${apple}%20${pear}$`));
    await expect(page.getByText(`3 blogs matched the search term ${apple} ${pear}`)).toBeVisible();
    await expect(cards(page)).toHaveCount(3);
    // Best match first: the title with both words.
    await expect(cards(page).first().getByRole('heading')).toHaveText(`${apple} and ${pear} jam`);
    await expectNoSeriousAxeViolations(page);

    const card = cards(page).filter({ has: page.getByRole('heading', { name: `${apple} orchard notes` }) });
    await expect(card).toContainText('Author: ');
    await expect(card).toContainText('Upvote Count: 0');
    await expect(card).toContainText('Downvote Count: 0');
    await expect(card).toContainText(/Created \d{4}-\d{2}-\d{2}/);
    await card.getByRole('link', { name: 'View this Blog' }).click();
    await expect(page).toHaveURL(new RegExp(`/viewBlog\\?id=${first.id}$`));
    await expect(page.getByRole('heading', { name: `${apple} orchard notes` })).toBeVisible();
  });

  test("'Loading...' first, then 'No Blogs Found' when nothing matches", async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible();
    const search = held();
    await page.route('**/api/search?**', async (route) => {
      await search.promise;
      await route.continue();
    });
    await page.getByRole('searchbox', { name: 'Search' }).fill(uniqueWord());
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await expect(page.getByText('Loading...')).toBeVisible();
    search.release();
    await expect(page.getByText('No Blogs Found')).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
  });

  test('a hostile term is shown as text, runs nothing, and never breaks the search', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const term = '<img src=x onerror=alert(1)>';
    await page.goto('/');
    await searchFromNavbar(page, term);
    await expect(page.getByRole('status').filter({ hasText: /No Blogs Found|matched the search term/ })).toBeVisible();
    await expect(page.locator('main img[src="x"]')).toHaveCount(0);

    for (const hostile of ["'; drop table blogs; --", 'a & !b | (c:*)', '"quoted"', '🍎🍌', 'x'.repeat(1000)]) {
      await page.goto(`/search?searchTerm=${encodeURIComponent(hostile)}`);
      await expect(page.getByRole('status').filter({ hasText: /No Blogs Found|matched the search term/ })).toBeVisible();
    }
    expect(dialogs).toEqual([]);
    const health = await page.request.get('/api/blogs?page=1');
    expect(health.status()).toBe(200);
  });

  test('the term is rendered literally when it matches', async ({ page, context }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signUpVerified(context);
    const word = uniqueWord();
    await createBlog(context.request, `${word} markup`);
    const term = `<b>${word}</b> <img src=x onerror=alert(1)>`;
    await page.goto(`/search?searchTerm=${encodeURIComponent(term)}`);
    // Its other words ('1', 'x', 'img') may match other tests' blogs: the count is theirs too.
    await expect(page.locator('.search-summary')).toHaveText(new RegExp(`^\\d+ blogs matched the search term ${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await expect(page.getByRole('heading', { name: `${word} markup` })).toBeVisible();
    await expect(page.locator('main b')).toHaveCount(0);
    await expect(page.locator('main img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('pages through 7 matches, 5 at a time, with the page in the URL', async ({ page, context }) => {
    await signUpVerified(context);
    const word = uniqueWord();
    for (let i = 0; i < 7; i++) await createBlog(context.request, `${word} episode ${i}`);

    await page.goto('/');
    await searchFromNavbar(page, word);
    await expect(page.getByText(`7 blogs matched the search term ${word}`)).toBeVisible();
    await expect(cards(page)).toHaveCount(5);
    await expect(pageNumber(page)).toHaveText('Page 1');

    const dialog = page.getByRole('dialog');
    await page.getByRole('button', { name: 'Prev' }).click();
    await expect(dialog).toContainText('You are already on the first page');
    await dialog.getByRole('button', { name: 'Okay' }).click();

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(new RegExp(`searchTerm=${word}&page=2$`));
    await expect(pageNumber(page)).toHaveText('Page 2');
    await expect(cards(page)).toHaveCount(2);
    await expect(page.getByText(`7 blogs matched the search term ${word}`)).toBeVisible();

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(dialog).toContainText('You are already on the last page');
    await dialog.getByRole('button', { name: 'Okay' }).click();

    await page.getByRole('button', { name: 'Prev' }).click();
    await expect(page).toHaveURL(new RegExp(`searchTerm=${word}$`));
    await expect(cards(page)).toHaveCount(5);

    // The page survives a reload from the URL.
    await page.goto(`/search?searchTerm=${word}&page=2`);
    await expect(cards(page)).toHaveCount(2);
  });
});
