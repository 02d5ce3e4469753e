import type { Page } from '@playwright/test';
import { DEFAULT_PASSWORD, expect, signUpVerified, test, uniqueEmail } from './support/fixtures';
import { mailFilesNow, waitForMail } from './support/outbox';

/** Opens an e-mailed link the way a person would: the page, not an API call. */
async function openMailLink(page: Page, link: string) {
  const url = new URL(link);
  await page.goto(url.pathname + url.search);
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Your Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const welcome = (page: Page, email: string) => page.getByRole('heading', { level: 1, name: `Welcome ${email}` });

test.describe('accounts', () => {
  test('sign up, confirm through the e-mailed link, log out, sign in again', async ({ page }) => {
    const email = uniqueEmail('signup');
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Login or Register' })).toBeVisible();
    // No social provider is configured, so no such button shows (a passkey's is not a provider's).
    await expect(page.getByRole('button', { name: /Sign in with (?!a passkey)/ })).toHaveCount(0);

    // Moving from sign_in to sign_up keeps what was typed.
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Your Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click();
    await expect(page).toHaveURL(/view=sign_up/);
    await expect(page.getByLabel('Email address', { exact: true })).toHaveValue(email);
    await expect(page.getByLabel('Create a Password', { exact: true })).toHaveValue(DEFAULT_PASSWORD);

    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText('Check your email for the confirmation link')).toBeVisible();
    // No session until the address is confirmed.
    expect((await (await page.request.get('/api/auth/get-session')).json())?.user ?? null).toBeNull();

    const mail = await waitForMail(email, /Confirm your e-mail address/);
    await openMailLink(page, mail.links[0]!);
    await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await expect(welcome(page, email)).toBeVisible();

    // Log out from the navbar: back to /, signed out everywhere on the page.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole('button', { name: 'More' }).click();
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // A wrong password is the server's error, under the form.
    await signInWithPassword(page, email, 'not the password');
    await expect(page.getByRole('alert')).toContainText('Invalid email or password');
    await page.getByLabel('Your Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(welcome(page, email)).toBeVisible();
    await page.getByRole('button', { name: 'More' }).click();
    await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();
  });

  test('reset the password through the e-mailed link', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    await context.clearCookies();
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset password instructions' }).click();
    await expect(page.getByText('Check your email for the password reset link')).toBeVisible();

    const mail = await waitForMail(email, /Reset your password/);
    await openMailLink(page, mail.links[0]!);
    await page.getByLabel('New Password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Confirm Password', { exact: true }).fill('a different secret');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(page.getByLabel('Confirm Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Confirm Password', { exact: true }).fill('a brand new secret');
    await page.getByRole('button', { name: 'Update password' }).click();

    await expect(page.getByText('Your password has been updated')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Your Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid email or password');
    await page.getByLabel('Your Password', { exact: true }).fill('a brand new secret');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(welcome(page, email)).toBeVisible();

    // The link works once.
    await openMailLink(page, mail.links[0]!);
    await page.getByLabel('New Password', { exact: true }).fill('yet another secret');
    await page.getByLabel('Confirm Password', { exact: true }).fill('yet another secret');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByRole('alert')).toContainText('invalid, used or expired');
  });

  test('sign in with a magic link', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    await context.clearCookies();
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Send a magic link email' }).click();
    await expect(page.getByText(/any password set on it is removed/)).toBeVisible();
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await expect(page.getByText('Email address can not be empty')).toBeVisible();
    await expect(page.getByLabel('Email address', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    const before = await mailFilesNow();
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await expect(page.getByText('Check your email for the magic link')).toBeVisible();

    const mail = await waitForMail(email, /sign-in link/, { after: before });
    await openMailLink(page, mail.links[0]!);
    await expect(page.getByRole('heading', { name: 'Sign in with your magic link' })).toBeVisible();
    // Opening the page signed nobody in; the button does.
    expect((await (await page.request.get('/api/auth/get-session')).json())?.user ?? null).toBeNull();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(welcome(page, email)).toBeVisible();

    await context.clearCookies();
    await openMailLink(page, mail.links[0]!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('invalid, used or expired');
  });

  test('sign in with a one-time code', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    await context.clearCookies();
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Sign in with a one-time code' }).click();
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    const mail = await waitForMail(email, /sign-in code/);
    const code = /code is (\d{6})/.exec(mail.text)![1]!;

    await page.getByLabel('One-time code', { exact: true }).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify code' }).click();
    await expect(page.getByRole('alert')).toContainText('That code is not right');
    await page.getByLabel('One-time code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await expect(welcome(page, email)).toBeVisible();
  });

  test('settings: change the password, then delete the account', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    await page.goto('/settings');
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');

    const change = page.getByRole('button', { name: 'Change Password' });
    await page.getByLabel('Current Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password', { exact: true }).fill('short');
    await change.click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page.getByLabel('New Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('New Password', { exact: true }).fill('a new password');
    await page.getByLabel('Confirm Password', { exact: true }).fill('a new passwort');
    await change.click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();

    // A wrong current password: the error shows, and no success popup.
    await page.getByLabel('Current Password', { exact: true }).fill('not my password');
    await page.getByLabel('Confirm Password', { exact: true }).fill('a new password');
    await change.click();
    await expect(page.getByRole('alert')).toContainText('Invalid password');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.getByLabel('Current Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await change.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Your password has been updated');
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(dialog).toBeHidden();

    // Delete: a wrong password changes nothing and shows why.
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await expect(dialog.getByRole('heading', { name: 'Delete Account' })).toBeVisible();
    await dialog.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid password');
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();

    // Cancel does nothing.
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Delete Account' }).click();
    await dialog.getByLabel('Password', { exact: true }).fill('a new password');
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await expect(dialog.getByRole('heading', { name: 'Account Deleted' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Okay' }).click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Please sign in' })).toBeVisible();
    await signInWithPassword(page, email, 'a new password');
    await expect(page.getByRole('alert')).toContainText('Invalid email or password');
  });

  test('a sign-out in one tab reaches the other open tabs without a reload', async ({ page, context }) => {
    const { email } = await signUpVerified(context);
    const other = await context.newPage();
    await other.goto('/settings');
    await expect(other.getByLabel('Email', { exact: true })).toHaveValue(email);
    await page.goto('/auth');
    await expect(welcome(page, email)).toBeVisible();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(other.getByRole('heading', { name: 'Please sign in' })).toBeVisible();
  });

  test('a configured social provider shows its button', async ({ page }) => {
    await page.route('**/api/auth-providers', (route) =>
      route.fulfill({ json: { providers: [{ id: 'github', name: 'github' }], emailVerificationRequired: true } }),
    );
    await page.goto('/auth');
    await expect(page.getByRole('button', { name: 'Sign in with GitHub' })).toBeVisible();
    await page.getByRole('link', { name: 'Send a magic link email' }).click();
    await expect(page.getByRole('button', { name: 'Sign in with GitHub' })).toHaveCount(0);
  });
});
