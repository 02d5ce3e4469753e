import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test } from './support/fixtures';

const unique = () => Math.random().toString(36).slice(2, 8);

async function post(context: BrowserContext, url: string, data: object): Promise<{ id: string }> {
  const response = await context.request.post(url, { data, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function createBlog(context: BrowserContext, title: string): Promise<string> {
  const response = await context.request.post('/api/blogs', {
    multipart: { title, blog: '## Why bees\n\nKeeping bees in a city garden:\n\n- a hive\n- a few neighbours who like honey' },
    headers: { origin: E2E_BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Two frames after the network is quiet: whatever the scripts change after hydration has been painted. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * What the reader sees of the server's HTML alone: the same bytes the hydrated page started
 * from, shown in a context with the same cookies and JavaScript off (its stylesheet loads, so
 * only what is on screen counts).
 */
async function visibleTextOfHtml(browser: Browser, context: BrowserContext, path: string, html: string): Promise<string> {
  const scriptless = await browser.newContext({ baseURL: E2E_BASE_URL, javaScriptEnabled: false, storageState: await context.storageState(), viewport: { width: 1280, height: 800 } });
  const page = await scriptless.newPage();
  await page.route(`${E2E_BASE_URL}${path}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  const text = await page.locator('body').innerText();
  await scriptless.close();
  return text;
}

test('a signed-in reader gets /, /viewBlog and /search rendered as they will look: hydration changes no visible text', async ({ page, context, browser }) => {
  const word = `Rendered${unique()}`;
  await signUpVerified(context);
  const id = await createBlog(context, `${word} bees`);
  const comment = await post(context, `/api/blogs/${id}/comments`, { body: 'A first thought' });
  await post(context, `/api/blogs/${id}/comments`, { body: 'A reply', parentId: comment.id });
  const vote = await context.request.put(`/api/blogs/${id}/vote`, { data: { direction: 'up' }, headers: { origin: E2E_BASE_URL } });
  expect(vote.status()).toBe(200);

  for (const path of ['/', `/viewBlog?id=${id}`, `/search?searchTerm=${word}`]) {
    const response = await page.goto(path);
    expect(response!.headers()['cache-control']).toBe('private, no-store');
    const html = await response!.text();
    await settled(page);
    const hydrated = await page.locator('body').innerText();
    const fromServer = await visibleTextOfHtml(browser, context, path, html);
    expect(hydrated, `the visible text of ${path} after hydration`).toBe(fromServer);
    // The signed-in More menu is in the server's HTML (closed until opened).
    expect(html).toMatch(/>Log out</);
    if (path.startsWith('/viewBlog')) {
      // The reader's own controls were in the server's HTML: votes (pressed), Remove my vote, the owner's buttons, the comment form.
      for (const control of ['Upvote', 'Downvote', 'Remove my vote', 'Edit Blog', 'Delete Blog', 'Add a comment', 'Post comment', 'Reply', 'Edit comment']) {
        expect(fromServer, `${control} in the server's page`).toContain(control);
      }
      expect(fromServer).not.toContain('Sign in to comment');
    }
  }

  // The menu's signed-in items are the ones the reader opens.
  await page.getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});

test("one column on /viewBlog: the comments' heading, author lines, texts and form start on the article's edge and keep its measure", async ({ page, context }) => {
  await signUpVerified(context);
  const id = await createBlog(context, `Column ${unique()}`);
  const comment = await post(context, `/api/blogs/${id}/comments`, { body: 'A comment long enough to take the whole measure of the column. '.repeat(4) });
  await post(context, `/api/blogs/${id}/comments`, { body: 'A reply', parentId: comment.id });

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/viewBlog?id=${id}`);
    const article = (await page.locator('article.blog-article').boundingBox())!;
    const parts = {
      'the comments heading': page.getByRole('heading', { name: /^Comments \(2\)$/ }),
      "a comment's author line": page.locator('.comment h3').first(),
      "a comment's text": page.locator('.comment-body').first(),
      'the comment form': page.getByLabel('Add a comment'),
      'the subscribe form': page.getByRole('heading', { name: 'Get new blogs by e-mail' }),
    };
    for (const [name, locator] of Object.entries(parts)) {
      const box = (await locator.boundingBox())!;
      expect(Math.abs(box.x - article.x), `${name} starts on the article's edge at ${width} px`).toBeLessThanOrEqual(1);
      expect(box.x + box.width, `${name} stays inside the article's column at ${width} px`).toBeLessThanOrEqual(article.x + article.width + 1);
    }
    const text = (await page.locator('.comment-body').first().boundingBox())!;
    expect(text.width, `the comment's text keeps the article's measure at ${width} px`).toBeGreaterThan(article.width - 2);
  }
  // The signed-in page, with its comment form and comment controls, passes axe.
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
