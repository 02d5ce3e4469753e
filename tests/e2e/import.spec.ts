import { readFileSync } from 'node:fs';
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

  // A dry run reports what would happen and writes nothing; the file has a bare "&", as real exports do.
  const messy = readFileSync(WXR, 'utf8').replace('<link>https://wp-sample.example</link>', '<link>https://wp-sample.example/?a=1&b=2</link>');
  await page.getByLabel('Export file').setInputFiles({ name: 'theme-unit-test-data.xml', mimeType: 'text/xml', buffer: Buffer.from(messy) });
  await page.getByLabel('Dry run: change nothing, only report what would happen').check();
  await page.getByRole('button', { name: 'Import' }).click();
  const dryReport = page.getByRole('region', { name: 'What the import would do (nothing was written)' });
  await expect(dryReport).toContainText('7 would import, 0 unchanged, 1 would fail, 4 skipped');
  // The post whose author the export does not list would go to the moderator, and the report says so.
  await expect(dryReport.getByRole('heading', { name: 'Posts it would change on the way' })).toBeVisible();
  await expect(dryReport).toContainText(`"Edge Case: Unknown Author": given to ${E2E_IMPORT_MODERATOR_EMAIL} (the moderator who imported it)`);
  await expect(dryReport.getByRole('heading', { name: 'Lines of the file repaired to read it' })).toBeVisible();
  await expect(dryReport).toContainText(/line \d+: a bare "&" escaped/);
  await readerPage.goto('/search?searchTerm=Markup');
  await expect(readerPage.getByRole('status')).toHaveText('No Blogs Found');
  await expect(readerPage.getByRole('article', { name: 'Markup: HTML Tags and Formatting' })).toHaveCount(0);

  // The import itself: the progress bar while it runs, then the report.
  await page.getByLabel('Dry run: change nothing, only report what would happen').uncheck();
  await page.getByLabel('Export file').setInputFiles(WXR);
  await page.getByRole('button', { name: 'Import' }).click();
  const progress = page.getByRole('progressbar');
  const report = page.getByRole('region', { name: 'Import report' });
  await expect(progress.or(report)).toBeVisible();
  await expect(report).toContainText('7 imported, 0 unchanged, 1 failed, 4 skipped');
  await expect(report.getByRole('list').first()).toContainText('(untitled) (wordpress id 1241): title');
  await expect(report.getByRole('heading', { name: 'Posts changed on the way' })).toBeVisible();
  await expect(progress).toHaveCount(0);
  // The form, the report and its lists pass axe with no serious violation.
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.help}`)).toEqual([]);

  // The readers see the imported posts.
  await readerPage.goto('/search?searchTerm=Markup');
  await expect(readerPage.getByRole('article', { name: 'Markup: HTML Tags and Formatting' })).toBeVisible();
  await moderatorContext.close();
});
