import type { APIRequestContext } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test } from './support/fixtures';

const unique = () => Math.random().toString(36).slice(2, 8);

async function createBlog(request: APIRequestContext, title: string, blog = `Content of ${title}`): Promise<{ id: string; userId: string }> {
  const response = await request.post('/api/blogs', { multipart: { title, blog }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; userId: string };
}

/** 5,000 short words in paragraphs of 100 (short, so the text fits the content limit). */
const fiveThousandWords = () =>
  Array.from({ length: 50 }, (_, p) => Array.from({ length: 100 }, (_, w) => ['we', 'go', 'on', 'to', 'sea'][(p + w) % 5]).join(' ')).join('\n\n');

test('a card is as tall for a 5,000-word blog as for a short one; the blog page reads at ~70 characters a line', async ({ page, context }) => {
  const { email } = await signUpVerified(context);
  const word = `Measure${unique()}`;
  const long = await createBlog(context.request, `${word} long`, fiveThousandWords());
  await createBlog(context.request, `${word} short`, 'A short one.');

  await page.goto(`/search?searchTerm=${word}`);
  const card = (title: string) => page.locator('main article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  await expect(card(`${word} long`)).toBeVisible();
  const longHeight = (await card(`${word} long`).boundingBox())!.height;
  const shortHeight = (await card(`${word} short`).boundingBox())!.height;
  // The excerpt is clamped to a few lines: no more than three lines' difference, whatever the length.
  expect(longHeight - shortHeight).toBeLessThan(80);
  expect(longHeight).toBeLessThan(400);

  await page.goto(`/viewBlog?id=${long.id}`);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${word} long`);
  const byline = page.locator('main article header');
  await expect(byline.getByRole('link', { name: `Author: ${email}` })).toHaveAttribute('href', `/author?id=${long.userId}`);
  await expect(byline).toContainText(/Created \d{4}-\d{2}-\d{2}/);
  await expect(byline).toContainText('23 min read');
  await expect(byline).not.toContainText('Updated');

  /** Characters on the first line of the body's first paragraph, as laid out. */
  const firstLine = () =>
    page.locator('main article .blog-body p').first().evaluate((paragraph) => {
      const text = paragraph.firstChild!;
      const range = document.createRange();
      const top = (end: number) => {
        range.setStart(text, end - 1);
        range.setEnd(text, end);
        return range.getBoundingClientRect().top;
      };
      const first = top(1);
      let count = 1;
      while (count < text.textContent!.length && top(count + 1) === first) count++;
      return { count, fontSize: parseFloat(getComputedStyle(paragraph).fontSize) };
    });
  const desktop = await firstLine();
  expect(desktop.count).toBeGreaterThanOrEqual(60);
  expect(desktop.count).toBeLessThanOrEqual(80);
  expect(desktop.fontSize).toBeGreaterThanOrEqual(17);
  // On a phone the line is the screen's width, at the same size, and nothing runs off the side.
  await page.setViewportSize({ width: 390, height: 800 });
  const phone = await firstLine();
  expect(phone.fontSize).toBe(desktop.fontSize);
  expect(phone.count).toBeGreaterThanOrEqual(30);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Edited, the byline says when.
  const edit = await context.request.patch(`/api/blogs/${long.id}`, { multipart: { title: `${word} long`, blog: 'Now short.' }, headers: { origin: E2E_BASE_URL } });
  expect(edit.status(), await edit.text()).toBe(200);
  await page.reload();
  await expect(byline).toContainText(/Updated \d{4}-\d{2}-\d{2}/);
  await expect(byline).toContainText('1 min read');
});

test('an empty home list invites a signed-in reader to write the first blog, and a visitor to sign in first', async ({ page, context }) => {
  // Other tests have written blogs on this server: the empty answer is staged for the browser's own request.
  await page.route('**/api/blogs?page=1&sort=new', (route) => route.fulfill({ json: { items: [], page: 1, pageSize: 5, hasMore: false } }));
  await page.goto('/?sort=top');
  await page.getByRole('navigation', { name: 'Order of the blogs' }).getByRole('link', { name: 'New' }).click();
  await expect(page.getByText('There are no blogs in the database :(')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in to write the first blog' })).toHaveAttribute('href', '/auth');

  await signUpVerified(context);
  await page.goto('/?sort=top');
  await page.getByRole('navigation', { name: 'Order of the blogs' }).getByRole('link', { name: 'New' }).click();
  await expect(page.getByRole('link', { name: 'Write the first blog' })).toHaveAttribute('href', '/create');
});

test('Top, New and Hot are links; the pager keeps the order in the URL', async ({ page, context }) => {
  await signUpVerified(context);
  // Enough blogs for a second page in every order, whatever else is on the site.
  for (let i = 0; i < 6; i++) await createBlog(context.request, `Ordered ${unique()} ${i}`);

  await page.goto('/');
  const orders = page.getByRole('navigation', { name: 'Order of the blogs' });
  await expect(orders.getByRole('link', { name: 'Top' })).toHaveAttribute('aria-current', 'page');
  await orders.getByRole('link', { name: 'New' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/?sort=new`);
  await expect(orders.getByRole('link', { name: 'New' })).toHaveAttribute('aria-current', 'page');
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/?sort=new&page=2`);
  await expect(pager.locator('[aria-current="page"]')).toHaveText('Page 2');
  await expect(orders.getByRole('link', { name: 'New' })).toHaveAttribute('aria-current', 'page');
  await pager.getByRole('button', { name: 'Prev' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/?sort=new`);

  await orders.getByRole('link', { name: 'Hot' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/?sort=hot`);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/?sort=hot&page=2`);
  // Reloaded, the page is the same order and page, rendered by the server.
  await page.reload();
  await expect(orders.getByRole('link', { name: 'Hot' })).toHaveAttribute('aria-current', 'page');
  await expect(pager.locator('[aria-current="page"]')).toHaveText('Page 2');
  await orders.getByRole('link', { name: 'Top' }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
});

test("a card's author link opens the author's page, with its own feed", async ({ page, context }) => {
  const { email } = await signUpVerified(context);
  const title = `Authored ${unique()}`;
  const blog = await createBlog(context.request, title);

  await page.goto(`/search?searchTerm=${encodeURIComponent(title)}`);
  await page.locator('main article').getByRole('link', { name: `Author: ${email}` }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/author?id=${blog.userId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Blogs by ${email}` })).toBeVisible();
  await expect(page.locator('main article').getByRole('heading', { name: title })).toBeVisible();
  // After the client-side navigation the head names the author's feeds too, once each.
  for (const feed of ['rss.xml', 'atom.xml', 'feed.json']) {
    await expect(page.locator(`link[rel="alternate"][href="${E2E_BASE_URL}/${feed}?author=${blog.userId}"]`)).toHaveCount(1);
  }
  // And leaving the author's page takes them away again, keeping the site's.
  await page.getByRole('link', { name: 'About' }).first().click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/about`);
  await expect(page.locator('link[rel="alternate"][data-page-feed]')).toHaveCount(0);
  await expect(page.locator(`link[rel="alternate"][href="${E2E_BASE_URL}/atom.xml"]`)).toHaveCount(1);

  // As a first visit, the server sends the page with its title, canonical and the author's feeds.
  await page.goto(`/author?id=${blog.userId}`);
  await expect(page).toHaveTitle(new RegExp(`^Blogs by ${email.replace(/[.+]/g, '\\$&')}`));
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${E2E_BASE_URL}/author?id=${blog.userId}`);
  for (const feed of ['rss.xml', 'atom.xml', 'feed.json']) {
    await expect(page.locator(`link[rel="alternate"][href="${E2E_BASE_URL}/${feed}?author=${blog.userId}"]`)).toHaveCount(1);
  }
  const unknown = await page.goto('/author?id=nobody');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This author does not exist' })).toBeVisible();
});

test('a reader takes their vote back; the same vote twice still says so', async ({ page, context }) => {
  await signUpVerified(context);
  const blog = await createBlog(context.request, `Vote and take back ${unique()}`);
  await page.goto(`/viewBlog?id=${blog.id}`);
  const upvote = page.getByRole('button', { name: 'Upvote', exact: true });
  const remove = page.getByRole('button', { name: 'Remove my vote' });
  await expect(remove).toHaveCount(0);

  await upvote.click();
  await expect(page.getByText('Upvote Count: 1')).toBeVisible();
  const dialog = page.getByRole('dialog');
  await upvote.click();
  await expect(dialog).toContainText('You have already upvoted this blog');
  await dialog.getByRole('button', { name: 'Okay' }).click();
  await expect(dialog).toBeHidden();

  await remove.click();
  await expect(page.getByText('Upvote Count: 0')).toBeVisible();
  await expect(upvote).toHaveAttribute('aria-pressed', 'false');
  await expect(remove).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Upvote Count: 0')).toBeVisible();
  await expect(upvote).toHaveAttribute('aria-pressed', 'false');
});
