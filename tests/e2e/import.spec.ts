import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { E2E_IMPORT_MODERATOR_EMAIL, expect, signUpVerified, test } from './support/fixtures';

const WXR = path.resolve(import.meta.dirname, '../fixtures/portability/wordpress-site/theme-unit-test-data.xml');
const hydrated = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');

test('a moderator imports a WordPress export from /import: a dry run first, then the import, with progress and the report', async ({ browser, page: readerPage }) => {
  const moderatorContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.201.0.1' } });
  await signUpVerified(moderatorContext, E2E_IMPORT_MODERATOR_EMAIL);
  await signUpVerified(readerPage.context());
  const page = await moderatorContext.newPage();

  // Readers get the site's 404 page.
  await readerPage.goto('/import');
  await expect(readerPage.getByRole('heading', { name: 'The Page you are looking for does not exist' })).toBeVisible();

  // The moderator finds the page from the moderation page.
  await page.goto('/moderation');
  await hydrated(page);
  await page.getByRole('link', { name: 'Import posts from Ghost, WordPress or Markdown files' }).click();
  await expect(page.getByRole('heading', { name: 'Import', level: 1 })).toBeVisible();

  // A file that is no export: the API's message, shown as it is.
  await page.getByLabel('Export file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('alert')).toContainText('"notes.txt" is not an export this page reads');

  // A dry run reports what would happen and writes nothing.
  await page.getByLabel('Export file').setInputFiles(WXR);
  await page.getByLabel('Dry run: change nothing, only report what would happen').check();
  await page.getByRole('button', { name: 'Import' }).click();
  const dryReport = page.getByRole('region', { name: 'What the import would do (nothing was written)' });
  await expect(dryReport).toContainText('6 would import, 0 unchanged, 2 would fail, 4 skipped');
  await readerPage.goto('/search?searchTerm=Markup');
  await expect(readerPage.getByRole('status')).toHaveText('No Blogs Found');
  await expect(readerPage.getByRole('article', { name: 'Markup: HTML Tags and Formatting' })).toHaveCount(0);

  // The import itself: the progress bar while it runs, then the report.
  await page.getByLabel('Dry run: change nothing, only report what would happen').uncheck();
  await page.getByRole('button', { name: 'Import' }).click();
  const progress = page.getByRole('progressbar');
  const report = page.getByRole('region', { name: 'Import report' });
  await expect(progress.or(report)).toBeVisible();
  await expect(report).toContainText('6 imported, 0 unchanged, 2 failed, 4 skipped');
  await expect(report.getByRole('list').first()).toContainText('"Edge Case: Unknown Author" (wp:post_id 1242): dc:creator');
  await expect(progress).toHaveCount(0);
  // The form, the report and its lists pass axe with no serious violation.
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.help}`)).toEqual([]);

  // The readers see the imported posts.
  await readerPage.goto('/search?searchTerm=Markup');
  await expect(readerPage.getByRole('article', { name: 'Markup: HTML Tags and Formatting' })).toBeVisible();
  await moderatorContext.close();
});
