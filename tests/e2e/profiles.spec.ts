import { randomBytes } from 'node:crypto';
import { expect, signUpVerified, test, uniqueEmail } from './support/fixtures';

test.describe("Settings: 'Profile'", () => {
  test('a new account edits its handle, display name and bio, and its author page shows them', async ({ page, context, browser }) => {
    const { email } = await signUpVerified(context, uniqueEmail('e2e.writer'));
    await page.goto('/settings');
    const profile = page.getByRole('form', { name: 'Profile' });
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    // The handle made at the first sign-in, from the e-mail's local part, and the hint that says so.
    const handleField = profile.getByLabel('Handle');
    await expect(handleField).toHaveValue(email.split('@')[0]!.replace(/[^a-z0-9_]/g, '_').slice(0, 24));
    await expect(profile.getByText('Your handle was made from your e-mail address')).toBeVisible();

    // The form's own check, before anything is sent.
    await handleField.fill('no');
    await profile.getByRole('button', { name: 'Save' }).click();
    await expect(profile.getByText('A handle needs at least 3 characters.')).toBeVisible();
    await expect(handleField).toHaveAttribute('aria-invalid', 'true');

    const handle = `writer_${randomBytes(4).toString('hex')}`;
    await handleField.fill(handle.toUpperCase());
    await profile.getByLabel('Display name').fill('Ada <b>Writer</b>');
    await profile.getByLabel('Bio').fill('Writes about engines.\nAnd poems.');
    await profile.getByRole('button', { name: 'Save' }).click();
    await expect(profile.getByRole('status')).toHaveText('Profile saved.');
    await expect(handleField).toHaveValue(handle);
    await expect(profile.getByText('Your handle was made from your e-mail address')).toHaveCount(0);

    // Another account cannot take it.
    const otherContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}` } });
    try {
      await signUpVerified(otherContext);
      const other = await otherContext.newPage();
      await other.goto('/settings');
      await other.evaluate(() => window.dispatchEvent(new FocusEvent('focusin')));
      await other.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      const otherForm = other.getByRole('form', { name: 'Profile' });
      await otherForm.getByLabel('Handle').fill(handle);
      await otherForm.getByRole('button', { name: 'Save' }).click();
      await expect(otherForm.getByRole('alert')).toHaveText('That handle is taken.');
    } finally {
      await otherContext.close();
    }

    await profile.getByRole('link', { name: 'See your author page' }).click();
    await expect(page).toHaveURL(/\/author\?id=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Blogs by ${email}`);
    const about = page.getByRole('region', { name: 'About the author' });
    await expect(about).toContainText('Ada <b>Writer</b>');
    await expect(about).toContainText(`@${handle}`);
    await expect(about).toContainText('Writes about engines.');
    await expect(about.locator('b')).toHaveCount(0);

    // The same, rendered by the server on a fresh load.
    await page.reload();
    await expect(page.getByRole('region', { name: 'About the author' })).toContainText(`@${handle}`);
  });
});
