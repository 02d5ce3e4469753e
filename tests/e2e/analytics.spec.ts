import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config';
import { E2E_ANALYTICS_MODERATOR_EMAIL, expect, signUpVerified, test } from './support/fixtures';

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
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
      const download = moderatorPage.waitForEvent('download');
      await moderatorPage.getByRole('link', { name: 'Download these figures as CSV' }).click();
      expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    } finally {
      await moderatorContext.close();
    }
  });
});
