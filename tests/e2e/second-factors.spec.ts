import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { base32Decode, totp } from '../../src/server/testing/totp';
import { expect, signUpVerified, test } from './support/fixtures';

const welcome = (page: Page, email: string) => page.getByRole('heading', { level: 1, name: `Welcome ${email}` });

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
}

test.describe('second factors', () => {
  test('a passkey is added in Settings (virtual authenticator), then signs in on its own from /auth: by autofill, and by its button', async ({ page, context }) => {
    // The DevTools protocol's WebAuthn domain: an authenticator inside this browser that
    // answers every ceremony as if the person had touched it.
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const { email } = await signUpVerified(context);

    await page.goto('/settings');
    const passkeys = page.getByRole('list', { name: 'Your passkeys' });
    await expect(page.getByText('No passkeys yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByText('Give the passkey a name, such as the device it is on.')).toBeVisible();
    await page.getByLabel('Passkey name').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    await expect(passkeys).toContainText('Work laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    await expectNoAxeViolations(page);

    // Signed out, the passkey alone signs in: first as the e-mail field's autofill offers it (the
    // virtual authenticator picks it at once, as a person would from the suggestions). The
    // autofill's request is held until the field has been seen: otherwise the sign-in can finish,
    // and the form give way to the welcome, before the field is looked at (the test's old flake).
    await context.clearCookies();
    let releaseAutofill!: () => void;
    const fieldSeen = new Promise<void>((resolve) => (releaseAutofill = resolve));
    await page.route('**/api/auth/passkey/generate-authenticate-options*', async (route) => {
      await fieldSeen;
      await route.continue();
    });
    await page.goto('/auth');
    await expect(page.getByLabel('Email address', { exact: true })).toHaveAttribute('autocomplete', 'username webauthn');
    releaseAutofill();
    await expect(welcome(page, email)).toBeVisible();
    await page.unroute('**/api/auth/passkey/generate-authenticate-options*');

    // ...then with the button, in a browser that has no autofill for passkeys.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    await context.clearCookies();
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(welcome(page, email)).toBeVisible();

    // Removed, it is gone from the list.
    await page.goto('/settings');
    await passkeys.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
    await expect(page.getByText('No passkeys yet.')).toBeVisible();
  });

  test('an authenticator app is set up in Settings; then a password sign-in asks for its code', async ({ page, context }) => {
    const { email, password } = await signUpVerified(context);
    await page.goto('/settings');
    const card = page.getByRole('form', { name: 'Set up an authenticator app' });
    await card.getByLabel('Your current password').fill(password);
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();

    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const key = base32Decode(((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s/g, ''));
    await expectNoAxeViolations(page);
    await page.getByLabel('Code from your app').fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await expect(page.getByRole('alert')).toContainText('That code is not right');
    await page.getByLabel('Code from your app').fill(totp(key, Date.now() / 1000));
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();

    const codes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download backup codes' }).click();
    expect((await download).suggestedFilename()).toBe('backup-codes.txt');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();

    // Signed out: the password is not enough any more.
    await context.clearCookies();
    await page.goto('/auth');
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Your Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
    await expectNoAxeViolations(page);
    expect((await context.request.get('/api/account')).status()).toBe(401);
    // The next 30 seconds' code: the enrolment used this one, and a code counts once.
    await page.getByLabel('Authentication code').fill(totp(key, Date.now() / 1000 + 30));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(welcome(page, email)).toBeVisible();
  });
});
