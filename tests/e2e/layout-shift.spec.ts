import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { solidPng } from '../../src/server/testing/image-fixtures';
import { expect, signUpVerified, test } from './support/fixtures';

/**
 * Nothing moves: the cumulative layout shift of a first visit, hydration and the signed-in
 * parts included, stays below 0.02 on the home page, a blog and a search, signed out and in.
 */
const LIMIT = 0.02;

// Tall enough that a blog page, its buttons' row and the footer under it are all in view: a shift
// counts only where it can be seen.
test.use({ viewport: { width: 1280, height: 2000 } });

declare global {
  interface Window {
    __layoutShift: number;
  }
}

async function createBlog(request: APIRequestContext, title: string): Promise<string> {
  const image = { name: 'photo.png', mimeType: 'image/png', buffer: await solidPng(1600, 900) };
  const response = await request.post('/api/blogs', {
    multipart: { title, blog: 'A paragraph that takes a line or two of the page.', image },
    headers: { origin: E2E_BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Sums every layout shift not caused by input, from the first byte of the page. */
async function observeLayoutShift(page: Page) {
  await page.addInitScript(() => {
    window.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) window.__layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function shiftAfterLoading(page: Page, path: string, settled: () => Promise<void>): Promise<number> {
  // After hydration the browser reads the session, unless the server rendered the page with it
  // (a signed-in reader's reading pages); what depends on it fills in after that.
  const signedIn = (await page.context().cookies()).some((cookie) => cookie.name.includes('session_token'));
  const session = signedIn ? undefined : page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/get-session');
  await page.goto(path);
  // An anonymous reader's reading page loads the app on the first touch (docs/page-weight.md):
  // one, a focus (no input, so its shifts still count), so that hydration is measured too.
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focusin')));
  await session;
  await settled();
  await page.waitForLoadState('networkidle');
  // Two frames, so the last paint's shifts are reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => window.__layoutShift);
}

test('signed out and signed in, /, /viewBlog and /search do not move while they load', async ({ page, context, browser }) => {
  const word = `Steady${Math.random().toString(36).slice(2, 8)}`;
  await signUpVerified(context);
  const ids: string[] = [];
  // Titles without numbers, so the search specs' terms do not match them.
  for (const name of ['harbour', 'meadow', 'lantern']) ids.push(await createBlog(context.request, `${word} ${name}`));
  const pages = [
    { path: '/', heading: () => page.locator('main article').first() },
    { path: `/viewBlog?id=${ids[0]}`, heading: () => page.getByRole('heading', { level: 1, name: `${word} harbour` }) },
    { path: `/search?searchTerm=${word}`, heading: () => page.getByText(`3 blogs matched the search term ${word}`) },
  ];

  // Signed in: on a blog, the vote and owner buttons fill their reserved row after hydration.
  await observeLayoutShift(page);
  for (const { path, heading } of pages) {
    const shift = await shiftAfterLoading(page, path, async () => {
      await expect(heading()).toBeVisible();
      if (path.startsWith('/viewBlog')) await expect(page.getByRole('button', { name: 'Upvote' })).toBeVisible();
    });
    expect(shift, `layout shift of ${path}, signed in`).toBeLessThan(LIMIT);
  }

  const visitor = await browser.newContext({ baseURL: E2E_BASE_URL, viewport: { width: 1280, height: 2000 } });
  const anonymous = await visitor.newPage();
  await observeLayoutShift(anonymous);
  for (const { path } of pages) {
    const shift = await shiftAfterLoading(anonymous, path, async () => {
      await expect(anonymous.locator('main h1, main article').first()).toBeVisible();
    });
    expect(shift, `layout shift of ${path}, signed out`).toBeLessThan(LIMIT);
  }
  await visitor.close();
});

test('compact cards: covers cropped to 16:9 from the stored widths, two titles in the first screen at 1280 × 800, the first card\'s link at 375 × 800, nothing moves', async ({
  page,
  context,
}) => {
  const word = `Compact${Math.random().toString(36).slice(2, 8)}`;
  await signUpVerified(context);
  for (const name of ['cliff', 'river', 'orchard']) await createBlog(context.request, `${word} ${name}`);
  // Signed out, as a new reader sees it (the session cookie goes, the blogs stay).
  await context.clearCookies();
  await observeLayoutShift(page);

  for (const path of ['/', '/?sort=new']) {
    await page.setViewportSize({ width: 1280, height: 800 });
    const shift = await shiftAfterLoading(page, path, async () => {
      await expect(page.locator('main article').first()).toBeVisible();
    });
    expect(shift, `layout shift of ${path} at 1280 × 800`).toBeLessThan(LIMIT);
    const titles = page.locator('main article h2');
    for (const index of [0, 1]) {
      const box = (await titles.nth(index).boundingBox())!;
      expect(box.y + box.height, `card title ${index + 1} of ${path} inside the first screen`).toBeLessThanOrEqual(800);
    }
  }

  // The newest first: the three cards with covers. Each cover is 16:9, cropped, from the srcset.
  const covers = page.locator('main article').locator('img');
  for (const index of [0, 1]) {
    const cover = page.locator('main article').nth(index).locator('img');
    await expect(cover).toHaveCSS('object-fit', 'cover');
    await expect(cover).toHaveAttribute('srcset', / 480w, .* 960w, /);
    await expect(cover).toHaveAttribute('sizes', /\(min-width: 992px\) 320px/);
    const box = (await cover.boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(16 / 9, 1);
    expect(box.width).toBeLessThanOrEqual(320);
  }
  // At 1280 px a cover is drawn 320 px wide: the 480 px file is the one loaded.
  await expect
    .poll(() => covers.first().evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.currentSrc : '')))
    .toMatch(/-w480\.webp$/);

  // A phone: the first card's 'View this Blog' is inside the first screen, and nothing moves.
  const phone = await page.context().browser()!.newContext({ baseURL: E2E_BASE_URL, viewport: { width: 375, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const onPhone = await phone.newPage();
  await observeLayoutShift(onPhone);
  for (const path of ['/', '/?sort=new']) {
    const shift = await shiftAfterLoading(onPhone, path, async () => {
      await expect(onPhone.locator('main article').first()).toBeVisible();
    });
    expect(shift, `layout shift of ${path} at 375 × 800`).toBeLessThan(LIMIT);
    const link = onPhone.locator('main article').first().getByRole('link', { name: 'View this Blog' });
    const box = (await link.boundingBox())!;
    expect(box.y + box.height, `the first card's link on ${path} inside the first screen`).toBeLessThanOrEqual(800);
    const cover = onPhone.locator('main article img').first();
    const coverBox = (await cover.boundingBox())!;
    expect(coverBox.width / coverBox.height).toBeCloseTo(16 / 9, 1);
  }
  // 317 px wide at twice the density: the 960 px file.
  const firstCover = onPhone.locator('main article img').first();
  await firstCover.scrollIntoViewIfNeeded();
  await expect
    .poll(() => firstCover.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.currentSrc : '')))
    .toMatch(/-w960\.webp$/);
  await phone.close();
});

test('the measurement sees a shift: a block pushed in above the content counts', async ({ page }) => {
  await observeLayoutShift(page);
  const shift = await shiftAfterLoading(page, '/about', async () => {
    await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible();
    await page.evaluate(() => {
      const block = document.createElement('div');
      block.style.height = '300px';
      document.querySelector('main')!.prepend(block);
    });
  });
  expect(shift).toBeGreaterThan(LIMIT);
});
