import AxeBuilder from '@axe-core/playwright';
import { E2E_BASE_URL } from '../../playwright.config';
import { expect, signUpVerified, test } from './support/fixtures';
import { waitForMail } from './support/outbox';

const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

test.describe("Settings: 'Sessions'", () => {
  test('lists where the account is signed in, signs out another browser, and passes an axe check', async ({ page, context, browser }) => {
    const { email, password } = await signUpVerified(context);
    // A second browser signs in to the same account.
    const other = await browser.newContext({ userAgent: FIREFOX });
    try {
      const signIn = await other.request.post('/api/auth/sign-in/email', { data: { email, password }, headers: { origin: E2E_BASE_URL } });
      expect(signIn.status(), await signIn.text()).toBe(200);
      expect((await other.request.get('/api/account')).status()).toBe(200);

      await page.goto('/settings');
      const list = page.getByRole('list', { name: 'Where you are signed in' });
      await expect(list.getByRole('listitem')).toHaveCount(2);
      await expect(list.getByRole('listitem').filter({ hasText: 'This browser' })).toHaveCount(1);
      await expect(list).toContainText('Firefox 133 on Linux');
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations).toEqual([]);

      await list.getByRole('button', { name: /^Sign out Firefox 133 on Linux/ }).click();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'Sign out all other sessions' })).toHaveCount(0);
      // The other browser is signed out at once.
      expect((await other.request.get('/api/account')).status()).toBe(401);
    } finally {
      await other.close();
    }
  });

  test("a sign-in from a new browser is mailed; the mail's page signs it out with 'This wasn't me', and passes an axe check", async ({ page, context, browser }) => {
    const { email, password } = await signUpVerified(context);
    const other = await browser.newContext({ userAgent: FIREFOX });
    try {
      const signIn = await other.request.post('/api/auth/sign-in/email', { data: { email, password }, headers: { origin: E2E_BASE_URL } });
      expect(signIn.status(), await signIn.text()).toBe(200);
      const mail = await waitForMail(email, /new sign-in/);
      expect(mail.text).toContain('Firefox 133 on Linux');
      const link = mail.links.find((each) => each.includes('/not-me?'))!;

      // Opening the link signs no one out: only the button does.
      await page.goto(link);
      await expect(page.getByRole('heading', { name: 'A new sign-in to your account' })).toBeVisible();
      expect((await other.request.get('/api/account')).status()).toBe(200);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations).toEqual([]);

      await page.getByRole('button', { name: 'This wasn’t me' }).click();
      await expect(page.getByRole('status')).toHaveText('We signed that browser out of your account and sent you an e-mail with a link to choose a new password.');
      expect((await other.request.get('/api/account')).status()).toBe(401);
      await waitForMail(email, /reset your password/i);
    } finally {
      await other.close();
    }
  });
});
