import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, held, signUpVerified, test, uniqueEmail } from './support/fixtures';
import { pngBomb, solidPng } from '../../src/server/testing/image-fixtures';

interface ApiBlog {
  id: string;
  title: string;
  blog: string;
  author: string;
  imageUrl: string | null;
  createdAt: string;
}

const unique = () => Math.random().toString(36).slice(2, 8);

async function createViaApi(request: APIRequestContext, title: string, blog = `Content of ${title}`): Promise<ApiBlog> {
  const response = await request.post('/api/blogs', { multipart: { title, blog }, headers: { origin: E2E_BASE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ApiBlog;
}

const cards = (page: Page) => page.locator('main article');
const cardTitled = (page: Page, title: string) => cards(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const pageNumber = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]');

/** Waits until the home list shows page `n` (its number and at least its cards or the empty text). */
async function expectOnPage(page: Page, n: number) {
  await expect(pageNumber(page)).toHaveText(`Page ${n}`);
  await expect(page.getByText('Loading...')).toHaveCount(0);
}

/** Walks the home pages with Next until the blog's card shows; other tests' blogs may come first. */
async function findOnHome(page: Page, title: string) {
  await page.goto('/');
  for (let n = 1; n <= 30; n++) {
    await expectOnPage(page, n);
    if ((await cardTitled(page, title).count()) > 0) return cardTitled(page, title);
    await page.getByRole('button', { name: 'Next' }).click();
  }
  throw new Error(`"${title}" is not on the home page`);
}

async function closeDialog(page: Page, text: string | RegExp, button = 'Okay') {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toHaveCount(0);
}

test.describe('blogs', () => {
  test('create a blog with an image, see it on the home and view pages, edit it, delete it', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    const title = `Sunrise over the bay ${unique()}`;

    await page.goto('/create');
    await expect(page.getByRole('heading', { name: 'Create a Blog' })).toBeVisible();
    const author = page.getByLabel('Author', { exact: true });
    await expect(author).toHaveValue(email);
    await expect(author).toHaveAttribute('readonly', '');
    await expect(page.getByLabel('Post Image')).toHaveAttribute('accept', 'image/*');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Content').fill('First line.\nSecond line.\n\nA new paragraph.');
    await page.getByLabel('Post Image').setInputFiles({ name: 'Sunrise.png', mimeType: 'image/png', buffer: await solidPng(2400, 1200, '#ff9933') });

    // Held until the working state has been seen.
    const upload = held();
    await page.route('**/api/blogs', async (route) => {
      await upload.promise;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    const working = page.getByRole('button', { name: 'Loading...' });
    await expect(working).toBeVisible();
    await expect(working).toBeDisabled();
    upload.release();
    await closeDialog(page, 'Blog Created!');
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
    await page.unroute('**/api/blogs');

    // The home card.
    const card = await findOnHome(page, title);
    await expect(card).toContainText(`Author: ${email}`);
    // The card shows the excerpt: the plain text, on one run of lines.
    expect(await card.locator('.blog-excerpt').innerText()).toBe('First line. Second line. A new paragraph.');
    await expect(card).toContainText('Upvote Count: 0');
    await expect(card).toContainText('Downvote Count: 0');
    const image = card.getByRole('img');
    // The page's first card loads its image at once, with high priority; the others lazily.
    const first = (await cards(page).first().getByRole('heading').textContent()) === title;
    await expect(image).toHaveAttribute('loading', first ? 'eager' : 'lazy');
    await expect(image).toHaveAttribute('width', /\d+/);
    await expect(image).toHaveAttribute('height', /\d+/);
    const imageUrl = await image.getAttribute('src');
    expect(imageUrl).toMatch(/^\/uploads\/blogs\/sunrise-.+\.webp$/);
    await image.scrollIntoViewIfNeeded();
    // At 1280 px the card's cover is drawn 320 px wide beside its text, so the browser picks the
    // 480 px file from the srcset (naturalWidth is then scaled by the srcset density, so the
    // loaded file is checked by its URL).
    await expect(image).toHaveCSS('object-fit', 'cover');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.currentSrc : '')))
      .toBe(`${E2E_BASE_URL}${imageUrl!.replace(/\.webp$/, '-w480.webp')}`);
    const footer = await card.locator('.card-footer').innerText();
    expect(footer).toMatch(/^Created \d{4}-\d{2}-\d{2}$/);

    // Its own page.
    await card.getByRole('link', { name: 'View this Blog' }).click();
    await expect(page).toHaveURL(/\/viewBlog\?id=[0-9a-f-]{36}$/);
    const id = new URL(page.url()).searchParams.get('id')!;
    const apiBlog = (await (await context.request.get(`/api/blogs/${id}`)).json()) as ApiBlog;
    expect(footer).toBe(`Created ${apiBlog.createdAt.split('T')[0]}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const article = page.locator('main article');
    await expect(article).toContainText(`Author: ${email}`);
    expect(await article.locator('.blog-body').innerText()).toBe('First line.\nSecond line.\n\nA new paragraph.');
    await expect(article.getByRole('img')).toHaveAttribute('src', imageUrl!);
    await expect(article).toContainText('Upvote Count: 0');
    await expect(article).toContainText('Downvote Count: 0');
    await expect(article).toContainText(footer);
    const served = await context.request.get(imageUrl!);
    expect(served.headers()['content-type']).toBe('image/webp');
    expect(served.headers()['cache-control']).toContain('immutable');

    // Edit: prefilled, the current thumbnail, a new image.
    await page.getByRole('link', { name: 'Edit Blog' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/edit?id=${id}`);
    await expect(page.getByLabel('Author', { exact: true })).toHaveValue(email);
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
    await expect(page.getByLabel('Content')).toHaveValue('First line.\nSecond line.\n\nA new paragraph.');
    await expect(page.getByRole('img', { name: "The blog's current image" })).toHaveAttribute('src', imageUrl!);
    const newTitle = `${title} (edited)`;
    await page.getByLabel('Title', { exact: true }).fill(newTitle);
    await page.getByLabel('Content').fill('Rewritten.');
    await page.getByLabel('Post Image').setInputFiles({ name: 'dusk.jpg', mimeType: 'image/jpeg', buffer: await sharp(await solidPng(300, 200, '#223366')).jpeg().toBuffer() });
    await page.getByRole('button', { name: 'Update' }).click();
    await closeDialog(page, 'Blog Updated!');
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);

    await page.goto(`/viewBlog?id=${id}`);
    await expect(page.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();
    await expect(page.locator('main article .blog-body')).toHaveText('Rewritten.');
    const newImageUrl = await page.locator('main article').getByRole('img').getAttribute('src');
    expect(newImageUrl).toMatch(/^\/uploads\/blogs\/dusk-.+\.webp$/);
    expect((await context.request.get(imageUrl!)).status()).toBe(404);

    // Delete: asked first; Cancel keeps it.
    await page.getByRole('button', { name: 'Delete Blog' }).click();
    await closeDialog(page, newTitle, 'Cancel');
    await expect(page.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();
    await page.getByRole('button', { name: 'Delete Blog' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await closeDialog(page, 'Blog Deleted!');
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
    await expect(cardTitled(page, newTitle)).toHaveCount(0);
    await page.goto(`/viewBlog?id=${id}`);
    await expect(page.getByRole('heading', { name: 'This blog does not exist' })).toBeVisible();
    expect((await context.request.get(newImageUrl!)).status()).toBe(404);
  });

  test('pages through 12 blogs, 5 at a time, with the page in the URL and the spec dialogs at both ends', async ({ page, context }) => {
    await signUpVerified(context);
    const batch = unique();
    const titles = Array.from({ length: 12 }, (_, i) => `Paging ${batch} #${String(i + 1).padStart(2, '0')}`);
    for (const title of titles) await createViaApi(context.request, title);

    await page.goto('/');
    await expectOnPage(page, 1);
    await expect(cards(page)).toHaveCount(5);
    await page.getByRole('button', { name: 'Prev' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Error' })).toBeVisible();
    await closeDialog(page, 'You are already on the first page');
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);

    // Other test files may add blogs meanwhile, which shifts the pages: walk again if so.
    await expect(async () => {
      await page.goto('/');
      const seen: string[] = [];
      for (let n = 1; ; n++) {
        await expectOnPage(page, n);
        if (n > 1) await expect(page).toHaveURL(`${E2E_BASE_URL}/?page=${n}`);
        const count = await cards(page).count();
        seen.push(...(await cards(page).getByRole('heading').allInnerTexts()));
        await page.getByRole('button', { name: 'Next' }).click();
        await expect(dialog.or(page.getByRole('navigation', { name: 'Pages' }).getByText(`Page ${n + 1}`))).toBeVisible();
        if (await dialog.isVisible()) {
          expect(count).toBeGreaterThanOrEqual(1);
          expect(count).toBeLessThanOrEqual(5);
          break;
        }
        expect(count).toBe(5);
      }
      expect(seen.length).toBeGreaterThanOrEqual(12);
      expect(seen).toEqual(expect.arrayContaining(titles));
    }).toPass({ timeout: 45_000 });
    await expect(dialog.getByRole('heading', { name: 'Error' })).toBeVisible();
    await closeDialog(page, 'You are already on the last page');

    // Newest first among equal ratings: the last one created leads our batch.
    await page.goto('/');
    await expectOnPage(page, 1);
    const firstTitles = await cards(page).getByRole('heading').allInnerTexts();
    const ours = firstTitles.filter((t) => t.startsWith(`Paging ${batch}`));
    expect(ours).toEqual([...titles].reverse().slice(0, ours.length));

    // Back, forward and reload keep the page.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/?page=2`);
    await expectOnPage(page, 2);
    await page.getByRole('button', { name: 'Next' }).click();
    await expectOnPage(page, 3);
    await page.goBack();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/?page=2`);
    await expectOnPage(page, 2);
    await page.reload();
    await expectOnPage(page, 2);
    await expect(cards(page)).toHaveCount(5);
    await page.goForward();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/?page=3`);
    await expectOnPage(page, 3);
    await page.getByRole('button', { name: 'Prev' }).click();
    await page.getByRole('button', { name: 'Prev' }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
    await expectOnPage(page, 1);
  });

  // A page's first load arrives rendered by the server; the browser loads the list itself when
  // it navigates, which is where 'Loading...' and a failing list show.
  test('Loading... while the list loads, and a list that fails to load says so and retries', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible();
    let failing = true;
    const list = held();
    await page.route('**/api/blogs?page=1&sort=top', async (route) => {
      await list.promise;
      if (failing) await route.fulfill({ status: 503, json: { error: 'UNAVAILABLE', message: 'The database is asleep.' } });
      else await route.continue();
    });
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await expect(page.getByText('Loading...')).toBeVisible();
    list.release();
    await expect(page.getByText('The blogs could not be loaded. The database is asleep.')).toBeVisible({ timeout: 15_000 });
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expectOnPage(page, 1);
    await expect(page.getByText('The blogs could not be loaded.')).toHaveCount(0);
  });

  test('an empty list says there are no blogs, and Next on it is the last page', async ({ page }) => {
    // Other tests have created blogs on this server by now, so the empty answer is staged, for
    // the browser's own request on navigating home.
    await page.goto('/about');
    await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible();
    await page.route('**/api/blogs?page=1&sort=top', (route) =>
      route.fulfill({ json: { items: [], page: 1, pageSize: 5, hasMore: false } }),
    );
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await expect(page.getByText('There are no blogs in the database :(')).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Next' }).click();
    await closeDialog(page, 'You are already on the last page');
  });

  test('the blog screens pass an axe check and fit a 375 px screen', async ({ page, context }) => {
    await signUpVerified(context);
    const blog = await createViaApi(context.request, `Accessible ${unique()}`);
    const urls = ['/', `/viewBlog?id=${blog.id}`, '/create', `/edit?id=${blog.id}`];
    const open = async (url: string) => {
      await page.goto(url);
      await expect(page.getByText('Loading...')).toHaveCount(0);
      await expect(page.getByRole('main').locator('article, form').first()).toBeVisible();
    };
    for (const url of urls) {
      await open(url);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${url}: ${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    await page.setViewportSize({ width: 375, height: 800 });
    for (const url of urls) {
      await open(url);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${url} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
    }
  });

  test('create validates with the spec popups, marks the field, and keeps the form on server errors', async ({ page, context }) => {
    await signUpVerified(context);
    await page.goto('/create');
    const titleField = page.getByLabel('Title', { exact: true });
    const contentField = page.getByLabel('Content');
    const submit = page.getByRole('button', { name: 'Submit' });

    await submit.click();
    await closeDialog(page, 'Add a title!');
    await expect(titleField).toHaveAttribute('aria-invalid', 'true');

    const title = `Validation ${unique()}`;
    await titleField.fill(title);
    await contentField.fill('   ');
    await submit.click();
    await closeDialog(page, 'Add some content!');
    await expect(contentField).toHaveAttribute('aria-invalid', 'true');
    await expect(titleField).not.toHaveAttribute('aria-invalid', 'true');

    // The server refuses what only looks like an image; the message shows and nothing is lost.
    await contentField.fill('Kept after errors.');
    await page.getByLabel('Post Image').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('plain text, not a picture') });
    await submit.click();
    await closeDialog(page, /not an image/);
    await expect(titleField).toHaveValue(title);
    await expect(contentField).toHaveValue('Kept after errors.');
    await expect(submit).toBeEnabled();

    await page.getByLabel('Post Image').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: pngBomb() });
    await submit.click();
    await closeDialog(page, 'The image is too large: at most 40 megapixels.');

    // Too big to send at all: refused in the page, the field marked.
    await page.getByLabel('Post Image').setInputFiles({ name: 'big.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    await submit.click();
    await closeDialog(page, 'The image is too large: at most 5 MB.');
    await expect(page.getByLabel('Post Image')).toHaveAttribute('aria-invalid', 'true');
    await expect(titleField).toHaveValue(title);

    const list = await (await context.request.get('/api/blogs?page=1')).json();
    expect(JSON.stringify(list)).not.toContain(title);

    // Signed out: a sign-in prompt instead of the form.
    await context.clearCookies();
    await page.goto('/create');
    await expect(page.getByText('You need to be signed in to create a blog.')).toBeVisible();
    await expect(page.getByLabel('Title', { exact: true })).toHaveCount(0);
  });

  test('only the owner sees Edit and Delete; unknown, missing and malformed ids', async ({ browser, page, context }) => {
    await signUpVerified(context);
    const blog = await createViaApi(context.request, `Owned ${unique()}`);
    await page.goto(`/viewBlog?id=${blog.id}`);
    await expect(page.getByRole('link', { name: 'Edit Blog' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete Blog' })).toBeVisible();

    const stranger = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.250.1.2' } });
    try {
      await signUpVerified(stranger, uniqueEmail('stranger'));
      const theirPage = await stranger.newPage();
      await theirPage.goto(`/viewBlog?id=${blog.id}`);
      await expect(theirPage.getByRole('heading', { level: 1, name: blog.title })).toBeVisible();
      await expect(theirPage.getByRole('link', { name: 'Edit Blog' })).toHaveCount(0);
      await expect(theirPage.getByRole('button', { name: 'Delete Blog' })).toHaveCount(0);
      await theirPage.goto(`/edit?id=${blog.id}`);
      await expect(theirPage.getByRole('heading', { name: 'You can only edit your own blogs' })).toBeVisible();
      await expect(theirPage.getByLabel('Title', { exact: true })).toHaveCount(0);
      const refused = await stranger.request.delete(`/api/blogs/${blog.id}`, { headers: { origin: E2E_BASE_URL } });
      expect(refused.status()).toBe(403);
    } finally {
      await stranger.close();
    }

    const visitor = await browser.newContext();
    try {
      const visitorPage = await visitor.newPage();
      await visitorPage.goto(`/viewBlog?id=${blog.id}`);
      await expect(visitorPage.getByRole('heading', { level: 1, name: blog.title })).toBeVisible();
      await expect(visitorPage.getByRole('link', { name: 'Edit Blog' })).toHaveCount(0);
    } finally {
      await visitor.close();
    }

    for (const url of ['/viewBlog', '/viewBlog?id=00000000-0000-4000-8000-000000000000', '/viewBlog?id=not-an-id']) {
      await page.goto(url);
      await expect(page.getByRole('heading', { name: 'This blog does not exist' }), url).toBeVisible();
    }

    await page.goto('/edit');
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
    await page.goto('/edit?id=00000000-0000-4000-8000-000000000000');
    await closeDialog(page, 'Blog not found!');
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
  });
});
