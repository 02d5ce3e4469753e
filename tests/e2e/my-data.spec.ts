import { readFileSync } from 'node:fs';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test } from './support/fixtures';

test.describe("Settings: 'Download my data'", () => {
  test('a signed-in reader downloads a .zip of their blogs, comments and votes', async ({ page, context }) => {
    await signUpVerified(context);
    const title = `Mine to keep ${Date.now()}`;
    const created = await context.request.post('/api/blogs', { multipart: { title, blog: 'Written here, taken home.', tags: 'portable' }, headers: { origin: E2E_BASE_URL } });
    expect(created.status()).toBe(201);

    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.zip$/);
    const bytes = readFileSync((await download.path())!);
    // A zip (local file header) holding the blog as a Markdown file with its front matter.
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    const text = bytes.toString('latin1');
    expect(text).toContain('blogs/mine-to-keep-');
    expect(text).toContain('comments.json');
    expect(text).toContain('votes.json');
  });
});
