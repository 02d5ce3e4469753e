import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { E2E_ANALYTICS_MODERATOR_EMAIL, expect, signUpVerified, test } from './support/fixtures';

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
}

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A day as the charts write it: "Dec 7, 2026". */
const chartDay = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** Every text in the page's SVGs is at least 11 px, as computed and as drawn, and the page does not scroll sideways. */
async function expectReadableChartsWithoutSidewaysScroll(page: Page) {
  const texts = await page.locator('svg text').evaluateAll((elements) =>
    elements.map((element) => ({ text: element.textContent, size: parseFloat(getComputedStyle(element).fontSize), height: element.getBoundingClientRect().height })),
  );
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    expect(text.size, `${text.text}: ${text.size}px`).toBeGreaterThanOrEqual(11);
    expect(text.height, `${text.text} drawn ${text.height}px high`).toBeGreaterThanOrEqual(11);
  }
  const sideways = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    // The innermost elements past the right edge, to say which one in a failure.
    past: [...document.querySelectorAll('main *')]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && element.children.length === 0)
      .slice(0, 5)
      .map((element) => `${element.tagName} ${element.textContent?.slice(0, 40)}`),
  }));
  expect(sideways.overflow, sideways.past.join('; ')).toBeLessThanOrEqual(0);
}

/**
 * The views chart of a 30-day page whose last day is `today`: four or more dated ticks; Tab from
 * `before` reaches today's figures, the arrow keys and Home the other days, each named and
 * written above the chart; pointing at a day writes it too.
 */
async function expectViewsChart(page: Page, before: ReturnType<Page['getByRole']>, today: string, todays: string) {
  const chart = page.getByRole('group', { name: 'Views per day', exact: true });
  const todaysName = new RegExp(`^${chartDay(today)}: ${todays}$`);
  await expect(chart).toBeVisible();
  const ticks = await chart.locator('.analytics-chart-tick').allTextContents();
  expect(ticks.length).toBeGreaterThanOrEqual(4);
  expect(new Set(ticks).size).toBe(ticks.length);
  for (const tick of ticks) expect(tick).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
  const readout = page.locator('.analytics-chart-readout').first();
  await before.focus();
  await page.keyboard.press('Tab');
  // The chart moves focus on the key's render, a frame after the key: each focus is waited for.
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
  await expect.poll(focused).toMatch(todaysName);
  await expect(readout).toHaveText(todaysName);
  await page.keyboard.press('ArrowLeft');
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await expect.poll(focused).toBe(`${chartDay(yesterday)}: 0 views, 0 visitors`);
  await expect(readout).toHaveText(`${chartDay(yesterday)}: 0 views, 0 visitors`);
  await page.keyboard.press('Home');
  await expect.poll(focused).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}: 0 views, 0 visitors$/);
  // Tab leaves the chart in one step (one stop for all its days): the table's summary is next.
  await page.keyboard.press('Tab');
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Views and visitors per day as a table');
  await chart.getByRole('img', { name: todaysName }).hover();
  await expect(readout).toHaveText(todaysName);
}

test.describe('statistics', () => {
  test("an author opens a blog's statistics from its page; a moderator the site's, with its CSV; both pass an axe check", async ({ page, context, browser }) => {
    await signUpVerified(context);
    const created = await context.request.post('/api/blogs', { multipart: { title: 'Counted here', blog: 'Read me.' }, headers: { origin: E2E_BASE_URL } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await page.goto(`/viewBlog?id=${id}`);
    await page.getByRole('link', { name: 'Statistics' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Blog statistics' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Counted here' })).toBeVisible();
    await expectNoAxeViolations(page);
    // A reader's More menu has no site statistics, and the page is the site's 404 for them.
    await page.goto('/analytics');
    await expect(page.getByRole('heading', { level: 1, name: 'Site statistics' })).toHaveCount(0);

    const moderatorContext = await browser.newContext();
    try {
      await signUpVerified(moderatorContext, E2E_ANALYTICS_MODERATOR_EMAIL);
      const moderatorPage = await moderatorContext.newPage();
      await moderatorPage.goto('/');
      await moderatorPage.getByRole('button', { name: 'More' }).click();
      await moderatorPage.getByRole('link', { name: 'Site statistics' }).click();
      await expect(moderatorPage.getByRole('heading', { level: 1, name: 'Site statistics' })).toBeVisible();
      await expectNoAxeViolations(moderatorPage);
      // The readers' charts run over every day of the range too, each day named.
      const today = new Date().toISOString().slice(0, 10);
      await expect(moderatorPage.getByRole('group', { name: 'E-mail subscribers', exact: true }).getByRole('img', { name: new RegExp(`^${chartDay(today)}: \\d+ subscribers?$`) })).toHaveCount(1);
      for (const viewport of VIEWPORTS) {
        await moderatorPage.setViewportSize(viewport);
        await moderatorPage.goto('/analytics');
        await expect(moderatorPage.getByRole('heading', { level: 1, name: 'Site statistics' })).toBeVisible();
        await expectViewsChart(moderatorPage, moderatorPage.getByRole('link', { name: 'Download these figures as CSV' }), today, '\\d+ views?, \\d+ visitors?');
        await expectReadableChartsWithoutSidewaysScroll(moderatorPage);
        await expectNoAxeViolations(moderatorPage);
      }
      const download = moderatorPage.waitForEvent('download');
      await moderatorPage.getByRole('link', { name: 'Download these figures as CSV' }).click();
      expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    } finally {
      await moderatorContext.close();
    }
  });

  test("a blog's charts: today's views at once, dated ticks, each day by keyboard and pointer, a one-day range as its figures, readable on a phone (issue 59)", async ({ page, context }) => {
    await signUpVerified(context);
    const created = await context.request.post('/api/blogs', { multipart: { title: 'Charted', blog: 'Count me.' }, headers: { origin: E2E_BASE_URL } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // Two readers in two browsers (the test's own browser is a headless one, which is not counted).
    for (const userAgent of [CHROME, FIREFOX]) expect((await context.request.get(`/viewBlog?id=${id}`, { headers: { 'user-agent': userAgent } })).status()).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    for (const viewport of VIEWPORTS) {
      await test.step(viewport.name, async () => {
        await page.setViewportSize(viewport);
        // Counted seconds ago, shown within a minute (the 5-minute roll-up is not waited for): this
        // process rolls today up again on a read unless it did less than 55 s ago (the first test's read).
        await expect(async () => {
          await page.goto(`/analytics/blog?id=${id}`);
          await expect(page.getByRole('img', { name: `${chartDay(today)}: 2 views, 2 visitors` })).toHaveCount(1, { timeout: 5_000 });
        }).toPass({ timeout: 65_000, intervals: [5_000] });
        await expect(page.getByRole('heading', { level: 1, name: 'Blog statistics' })).toBeVisible();
        await expectViewsChart(page, page.getByRole('button', { name: 'Show' }), today, '2 views, 2 visitors');
        await page.getByText('Views and visitors per day as a table').click();
        await expect(page.getByRole('table', { name: 'Views and visitors per day' })).toBeVisible();
        const captionAbove = await page.locator('table caption').evaluateAll((captions) => captions.map((caption) => getComputedStyle(caption).captionSide));
        expect(new Set(captionAbove)).toEqual(new Set(['top']));
        await expectReadableChartsWithoutSidewaysScroll(page);
        await expectNoAxeViolations(page);

        // One day: its figures, not a bar across the page.
        await page.goto(`/analytics/blog?id=${id}&from=${today}&to=${today}`);
        const figure = page.locator('figure').filter({ hasText: 'Views per day' });
        await expect(figure.getByText(chartDay(today))).toBeVisible();
        await expect(figure.locator('dt')).toHaveText(['Views', 'Visitors']);
        await expect(figure.locator('dd')).toHaveText(['2', '2']);
        await expect(figure.locator('svg')).toHaveCount(0);
        const box = (await figure.locator('.card').boundingBox())!;
        expect(box.width).toBeLessThan(viewport.width / 2);
        await expectNoAxeViolations(page);
      });
    }
  });
});
