import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test } from './support/fixtures';

/** Letters only, so each test's words are its own. */
const uniqueWord = () => Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function createBlog(request: APIRequestContext, fields: { title: string; blog: string; status?: string }): Promise<{ id: string }> {
  const response = await request.post('/api/blogs', { multipart: fields, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.help}`)).toEqual([]);
}

const cards = (page: Page) => page.locator('main article');

test.describe('search in text', () => {
  test("'Search in text too' finds a word of the text, marks it in a snippet, and goes back to titles", async ({ page, context }) => {
    await signUpVerified(context);
    const word = uniqueWord();
    const titled = uniqueWord();
    await createBlog(context.request, { title: `Walks by the sea ${titled}`, blog: `On windy days the ${word} flies low over the harbour.` });
    await createBlog(context.request, { title: `Draft ${titled}`, blog: `A draft about the ${word}.`, status: 'draft' });

    await page.goto('/');
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill(word);
    await box.press('Enter');
    // The spec's search looks at titles only.
    await expect(page.getByRole('status')).toHaveText('No Blogs Found');
    const inText = page.getByRole('switch', { name: 'Search in text too' });
    await expect(inText).not.toBeChecked();
    await inText.click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/search?searchTerm=${word}&in=all`);
    await expect(page.getByText(`1 blogs matched the search term ${word}`)).toBeVisible();
    await expect(inText).toBeChecked();
    const card = cards(page).first();
    await expect(card.getByRole('heading')).toHaveText(`Walks by the sea ${titled}`);
    await expect(card.locator('mark')).toHaveText([word]);
    await expect(card).toContainText(`On windy days the ${word} flies low over the harbour`);
    await expect(page).toHaveTitle(`Search in text: ${word} · Blogging Site`);
    await expectNoSeriousAxeViolations(page);

    await inText.click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/search?searchTerm=${word}`);
    await expect(page.getByRole('status')).toHaveText('No Blogs Found');
  });

  test('snippets show markup written in a blog as text: nothing of it runs or renders', async ({ page, context }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signUpVerified(context);
    const word = uniqueWord();
    await createBlog(context.request, {
      title: 'Markup in the text',
      blog: `Careful: <img src=x onerror=alert(1)> and <b>bold</b> and \`<script>alert(2)</script>\` around the ${word}.`,
    });
    await page.goto(`/search?searchTerm=${word}&in=all`);
    const card = cards(page).first();
    await expect(card.locator('mark')).toHaveText([word]);
    // A snippet is 15 to 35 words around the match: its start may be cut, what it shows reads as typed.
    await expect(card).toContainText('onerror=alert(1)> and <b>bold</b> and <script>alert(2)</script> around the');
    await expect(page.locator('main img[src="x"]')).toHaveCount(0);
    await expect(page.locator('main b, main script')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('phrases in quotes and -words, server-rendered, with hostile terms staying text', async ({ browser, context }) => {
    await signUpVerified(context);
    const word = uniqueWord();
    await createBlog(context.request, { title: 'Phrase one', blog: `The ${word} quick brown fox.` });
    await createBlog(context.request, { title: 'Phrase two', blog: `A brown ${word} quick fox.` });
    await createBlog(context.request, { title: 'Phrase three', blog: `The ${word} quick brown cat.` });

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    const visit = async (term: string) => {
      const response = await page.goto(`${E2E_BASE_URL}/search?${new URLSearchParams({ searchTerm: term, in: 'all' })}`);
      expect(response?.status(), term).toBe(200);
    };
    await visit(`"${word} quick brown"`);
    await expect(page.locator('.search-summary')).toHaveText(`2 blogs matched the search term "${word} quick brown"`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${E2E_BASE_URL}/search?${new URLSearchParams({ searchTerm: `"${word} quick brown"`, in: 'all' })}`);
    await expect(page.getByRole('switch', { name: 'Search in text too' })).toBeChecked();
    await visit(`${word} -cat`);
    await expect(page.locator('.search-summary')).toHaveText(`2 blogs matched the search term ${word} -cat`);
    await expect(page.getByRole('heading', { name: 'Phrase three' })).toHaveCount(0);
    await visit(`"${word} quick brown" -cat`);
    await expect(page.locator('.search-summary')).toHaveText(`1 blogs matched the search term "${word} quick brown" -cat`);
    await expect(page.getByRole('heading', { name: 'Phrase one' })).toBeVisible();

    for (const hostile of [`<img src=x onerror=alert(1)> ${word}`, "'; drop table blogs; --", 'a & !b | (c:*)', `-${word}`, '"', 'x'.repeat(1000)]) {
      await visit(hostile);
      await expect(page.getByRole('status').filter({ hasText: /No Blogs Found|matched the search term/ })).toBeVisible();
      await expect(page.locator('main img[src="x"]')).toHaveCount(0);
    }
    await noScript.close();
  });

  test('the search in text hydrates without a warning and does not move while it loads', async ({ page, context }) => {
    await signUpVerified(context);
    const word = uniqueWord();
    for (let i = 0; i < 3; i++) await createBlog(context.request, { title: `Steady ${i}`, blog: `Text with the ${word} in it, number ${i}.` });
    await context.clearCookies();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.addInitScript(() => {
      (window as unknown as { __shift: number }).__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
          if (!entry.hadRecentInput) (window as unknown as { __shift: number }).__shift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`/search?searchTerm=${word}&in=all`);
    await expect(cards(page)).toHaveCount(3);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.02);
    expect(problems).toEqual([]);
  });
});
